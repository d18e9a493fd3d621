//! The progress of a run on stderr ([`Bar`]): a bar of games done out of games expected, with
//! the rate and the time left, when stderr is a terminal; otherwise one status line every
//! [`PROGRESS_EVERY_ENV`] seconds (so a job's log shows how far it has gone).

use super::notice;
use super::tables::TERMINAL;
use dicelens::files::seconds_from_env;
use dicelens::pipeline::{MeterReading, Progress, RunMeter};
use dicelens::report::text::{progress_done, progress_status};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Environment variable: seconds between two progress lines when stderr is not a terminal
/// (`0`: none).
pub const PROGRESS_EVERY_ENV: &str = "DICELENS_PROGRESS_EVERY";

/// Seconds between two progress lines when [`PROGRESS_EVERY_ENV`] is not set.
pub const DEFAULT_PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// How often the bar on a terminal is redrawn.
const BAR_REFRESH: Duration = Duration::from_millis(250);

/// The progress of a run on stderr: table notices and builds (as [`TERMINAL`] shows them), and
/// from [`Progress::start`] to [`Progress::finish`] a thread that shows how far the run has
/// gone: a bar on a terminal, else a line every [`PROGRESS_EVERY_ENV`] seconds (none for a run
/// shorter than that) and a last line when the run is over. Nothing is shown after
/// [`Progress::finish`].
pub(crate) struct Bar {
    /// The thread showing the progress, while the run goes.
    shower: Mutex<Option<Shower>>,
    /// A table is being built (its own bar is on the terminal).
    building: Arc<AtomicBool>,
    /// The phases of the run, timed when `DICELENS_PHASES` is set.
    phases: Mutex<Phases>,
}

/// The thread showing a run's progress, and how to stop it.
struct Shower {
    stop: Sender<()>,
    thread: JoinHandle<()>,
}

impl Bar {
    /// A bar not started yet.
    pub(crate) fn new() -> Bar {
        Bar {
            shower: Mutex::new(None),
            building: Arc::new(AtomicBool::new(false)),
            phases: Mutex::new(Phases::start()),
        }
    }

    /// Stops the thread showing the progress, if one runs, once it has shown its last line.
    fn stop(&self) {
        let shower = self.shower.lock().ok().and_then(|mut shower| shower.take());
        if let Some(shower) = shower {
            drop(shower.stop);
            // A thread that panicked has nothing more to show.
            let _ = shower.thread.join();
        }
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.stop();
    }
}

impl dicelens::tables::Progress for Bar {
    fn notice(&self, message: &str) {
        TERMINAL.notice(message);
    }
    fn build_started(&self, what: &str, unit: &str) {
        self.building.store(true, Ordering::Relaxed);
        TERMINAL.build_started(what, unit);
    }
    fn build_progress(&self, done: u64, total: u64) {
        TERMINAL.build_progress(done, total);
    }
    fn build_finished(&self) {
        TERMINAL.build_finished();
        self.building.store(false, Ordering::Relaxed);
    }
}

impl Progress for Bar {
    fn start(&self, meter: &Arc<RunMeter>) {
        self.stop();
        let meter = Arc::clone(meter);
        let (stop, stopped) = channel();
        let thread = if std::io::stderr().is_terminal() {
            let building = Arc::clone(&self.building);
            std::thread::spawn(move || show_bar(&meter, &building, &stopped))
        } else {
            let every = seconds_from_env(PROGRESS_EVERY_ENV, DEFAULT_PROGRESS_EVERY)
                .unwrap_or_else(|e| {
                    notice(&format!(
                        "{e}; progress lines every {} s",
                        DEFAULT_PROGRESS_EVERY.as_secs()
                    ));
                    DEFAULT_PROGRESS_EVERY
                });
            if every.is_zero() {
                return;
            }
            std::thread::spawn(move || show_lines(&meter, every, &stopped))
        };
        if let Ok(mut shower) = self.shower.lock() {
            *shower = Some(Shower { stop, thread });
        }
    }
    fn finish(&self) {
        self.stop();
    }
    fn phase_done(&self, name: &str) {
        if let Ok(mut phases) = self.phases.lock() {
            phases.done(name);
        }
    }
}

/// The status of a run now: games done out of games expected, rate, time left, file.
fn status(meter: &RunMeter, reading: &MeterReading) -> String {
    let rate = meter.rating_began().and_then(|began| {
        let seconds = began.elapsed().as_secs_f64();
        (seconds > 0.0).then(|| reading.games_rated as f64 / seconds)
    });
    let files = (reading.files > 0).then(|| {
        let file = (reading.files_done + 1).min(reading.files);
        (file, reading.files)
    });
    progress_status(reading.games_rated, reading.games_expected(), rate, files)
}

/// Prints a status line on stderr every `every` until `stopped` (a line for each interval that
/// passed, on a schedule that does not drift), then a last line if any was printed.
fn show_lines(meter: &RunMeter, every: Duration, stopped: &Receiver<()>) {
    let started = Instant::now();
    let mut next = started + every;
    let mut printed = false;
    while let Err(RecvTimeoutError::Timeout) =
        stopped.recv_timeout(next.saturating_duration_since(Instant::now()))
    {
        notice(&format!("progress: {}", status(meter, &meter.read())));
        printed = true;
        next += every;
        // After a stall (a suspended process), the next line comes one interval on.
        let now = Instant::now();
        if next < now {
            next = now + every;
        }
    }
    if printed {
        let began = meter.rating_began().unwrap_or(started);
        let done = meter.read().games_rated;
        notice(&format!(
            "progress: {}",
            progress_done(done, began.elapsed())
        ));
    }
}

/// Shows a bar on stderr (a terminal), redrawn every [`BAR_REFRESH`] until `stopped`, then
/// cleared; hidden while a table is being built (whose bar is on the terminal then).
fn show_bar(meter: &RunMeter, building: &AtomicBool, stopped: &Receiver<()>) {
    let mut bar: Option<indicatif::ProgressBar> = None;
    while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(BAR_REFRESH) {
        if building.load(Ordering::Relaxed) {
            if let Some(bar) = bar.take() {
                bar.finish_and_clear();
            }
            continue;
        }
        let reading = meter.read();
        let shown = bar.get_or_insert_with(new_bar);
        let expected = reading.games_expected();
        shown.set_length(expected.unwrap_or(0));
        shown.set_position(reading.games_rated);
        shown.set_message(status(meter, &reading));
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
}

/// A bar of games done, its status beside it.
fn new_bar() -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template("[{bar:30}] {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// Times the phases of a run on stderr when the hidden switch `DICELENS_PHASES` is set (for
/// PERFORMANCE.md's account of what stays serial): `dicelens: phase NAME S s`, each phase
/// from the end of the one before.
pub struct Phases {
    last: Option<std::time::Instant>,
}

impl Phases {
    /// Starts timing, if the switch is set.
    pub fn start() -> Phases {
        let on = std::env::var_os("DICELENS_PHASES").is_some();
        Phases {
            last: on.then(std::time::Instant::now),
        }
    }

    /// Ends the phase `name`.
    pub fn done(&mut self, name: &str) {
        if let Some(last) = self.last.as_mut() {
            let now = std::time::Instant::now();
            super::notice(&format!(
                "phase {name} {:.3} s",
                (now - *last).as_secs_f64()
            ));
            *last = now;
        }
    }
}
