//! `--threads N`: how many threads compute, for every command (default: one per core, or the
//! `RAYON_NUM_THREADS` environment variable). The count is checked before any work starts: a
//! count that is not a number is refused, and one beyond what the machine can serve is capped
//! ([`most_threads`]) with a notice.

use super::{notice, CliError};

/// The environment variable read when `--threads` is not given (rayon's own, so that a setting
/// made for other rayon programs keeps its meaning; 0 there means one thread per core).
const ENV: &str = "RAYON_NUM_THREADS";

/// The most threads a run uses on a machine of `cores` cores: eight per core, and at least 64
/// (more only add memory and switching; a count like 100,000 would spend its time creating
/// threads).
pub fn most_threads(cores: usize) -> usize {
    (8 * cores).max(64)
}

/// Parses `--threads`: a whole number of at least 1.
pub fn parse_threads(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("expected at least 1 thread, got 0".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("expected a number of threads, got '{text}'")),
    }
}

/// The thread count `--threads` (if given) or the environment asks for, capped for a machine of
/// `cores` cores; with a notice when it is capped. `env` is the environment variable's value.
pub fn thread_count(
    flag: Option<usize>,
    env: Option<&str>,
    cores: usize,
) -> Result<(usize, Option<String>), CliError> {
    let (asked, source) = match (flag, env.map(str::trim)) {
        (Some(n), _) => (n, "--threads"),
        (None, None) | (None, Some("")) => (cores, ""),
        (None, Some(text)) => match text.parse::<usize>() {
            Ok(0) => (cores, ""),
            Ok(n) => (n, ENV),
            Err(_) => {
                return Err(CliError::flag(
                    ENV,
                    format!("expected a number of threads, got '{text}'"),
                ))
            }
        },
    };
    let most = most_threads(cores);
    if asked <= most {
        return Ok((asked, None));
    }
    let why = format!(
        "{source} {asked} is more threads than a machine of {cores} cores can serve; using {most}"
    );
    Ok((most, Some(why)))
}

/// Sets the number of threads of the whole run, from `--threads` or the environment, before any
/// work starts.
pub fn configure(flag: Option<usize>) -> Result<(), CliError> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let env = std::env::var(ENV).ok();
    let (threads, capped) = thread_count(flag, env.as_deref(), cores)?;
    if let Some(why) = capped {
        notice(&why);
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .map_err(|e| CliError::failure(format!("cannot start {threads} threads: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_come_from_the_flag_then_the_environment_and_are_capped() {
        assert_eq!(thread_count(None, None, 2).unwrap(), (2, None));
        assert_eq!(thread_count(Some(16), Some("3"), 2).unwrap(), (16, None));
        assert_eq!(thread_count(None, Some("3"), 2).unwrap(), (3, None));
        assert_eq!(thread_count(None, Some("0"), 4).unwrap(), (4, None));
        assert_eq!(thread_count(None, Some(" "), 4).unwrap(), (4, None));
        assert_eq!(thread_count(Some(64), None, 2).unwrap(), (64, None));
        let (n, why) = thread_count(None, Some("100000"), 2).unwrap();
        assert_eq!(n, 64);
        assert!(why
            .unwrap()
            .contains("RAYON_NUM_THREADS 100000 is more threads"));
        let (n, why) = thread_count(Some(1000), None, 16).unwrap();
        assert_eq!(n, 128);
        assert!(why.unwrap().starts_with("--threads 1000"));
        let err = thread_count(None, Some("many"), 2).unwrap_err();
        assert_eq!(err.code, 2);
        assert!(err
            .message
            .contains("RAYON_NUM_THREADS: expected a number of threads, got 'many'"));
        assert!(parse_threads("0").is_err());
        assert!(parse_threads("x").is_err());
        assert_eq!(parse_threads("7"), Ok(7));
    }
}
