//! `dicelens serve`: the interactive review board in the browser. Flags, one library call
//! (`dicelens::serve::serve`), and the address it listens on printed on stdout.

use super::flags::{OracleFlag, TablesFlag};
use super::CliError;
use dicelens::serve::{serve, ServeOptions};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;

/// The flags of `dicelens serve`.
#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    /// Log files (any format the tool reads) and analysis directories (`analyze --out`: their
    /// games, and their pages served read-only under /reports/N/).
    #[arg(value_name = "LOGS")]
    inputs: Vec<PathBuf>,
    /// Port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8765)]
    port: u16,
    /// Address to listen on: 127.0.0.1 unless given (another address opens the board, its
    /// games and its record directory to the network).
    #[arg(long, value_name = "ADDR", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,
    /// Directory that play and entry games are recorded in as YGN (made if missing); without
    /// it, both modes are refused.
    #[arg(long, value_name = "DIR")]
    record: Option<PathBuf>,
    #[command(flatten)]
    oracle: OracleFlag,
    #[command(flatten)]
    tables: TablesFlag,
}

/// Runs `dicelens serve` until the process is stopped; prints `listening on http://ADDR/`.
pub fn run(args: Args) -> Result<(), CliError> {
    let options = ServeOptions {
        inputs: args.inputs,
        address: SocketAddr::new(args.bind, args.port),
        tables: args.tables.tables,
        oracle: args.oracle.oracle,
        record: args.record,
    };
    serve(options, |address, skipped| {
        for line in skipped {
            super::notice(line);
        }
        if !skipped.is_empty() {
            super::notice(&format!(
                "{} games skipped, the others listed",
                skipped.len()
            ));
        }
        let _ = super::print_stdout(&format!("listening on http://{address}/\n"));
    })
    .map_err(CliError::failure)
}
