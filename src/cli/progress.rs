//! The progress of a run on stderr ([`Bar`]): a bar of games done out of games expected, with
//! the rate and the time left, when stderr is a terminal; otherwise one status line every
//! [`PROGRESS_EVERY_ENV`] seconds (so a job's log shows how far it has gone). A table build
//! ([`BuildShow`]) shows what it builds, its percent and the time left the same way: a line
//! redrawn in place on a terminal, else a line every [`PROGRESS_EVERY_ENV`] seconds and at
//! every [`BUILD_STEP_PERCENT`]; the games' line is not shown while a table builds.

use super::notice;
use dicelens::files::seconds_from_env;
use dicelens::pipeline::{MeterReading, Progress, RunMeter};
use dicelens::report::text::{grouped, progress_done, progress_status, short_duration};
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
            let building = Arc::clone(&self.building);
            std::thread::spawn(move || show_lines(&meter, &building, every, &stopped))
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
/// passed, on a schedule that does not drift; none while a table is being built, whose own
/// lines show then), then a last line if any was printed.
fn show_lines(meter: &RunMeter, building: &AtomicBool, every: Duration, stopped: &Receiver<()>) {
    let started = Instant::now();
    let mut next = started + every;
    let mut printed = false;
    while let Err(RecvTimeoutError::Timeout) =
        stopped.recv_timeout(next.saturating_duration_since(Instant::now()))
    {
        if !building.load(Ordering::Relaxed) {
            notice(&format!("progress: {}", status(meter, &meter.read())));
            printed = true;
        }
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

/// Percent steps at which a table build prints a line when stderr is not a terminal (besides
/// one every [`PROGRESS_EVERY_ENV`] seconds).
pub const BUILD_STEP_PERCENT: u64 = 10;

/// A table build's status in one line (without a prefix): what is built, the share done, the
/// work units done of all, and the time left at the rate since `base` (the units done and the
/// time elapsed at the build's first report: work resumed from an earlier build does not count
/// as fast work), once that rate has seen 1% of the build:
/// `building the yahtzee expected-score table: 45% (1,234 of 2,742 states), about 12s left`.
pub(crate) fn build_status(
    what: &str,
    unit: &str,
    (done, total): (u64, u64),
    elapsed: Duration,
    base: (u64, Duration),
) -> String {
    if total == 0 {
        return format!("{what}: starting");
    }
    let done = done.min(total);
    let percent = build_percent(done, total);
    let measured = done.saturating_sub(base.0);
    let left = if done >= total {
        format!("done in {}", short_duration(elapsed))
    } else if measured == 0 || measured.saturating_mul(100) < total {
        "time left not known yet".to_string()
    } else {
        let seconds = elapsed.saturating_sub(base.1).as_secs_f64();
        let left = seconds * (total - done) as f64 / measured as f64;
        match Duration::try_from_secs_f64(left.ceil()) {
            Ok(left) => format!("about {} left", short_duration(left)),
            Err(_) => "time left not known yet".to_string(),
        }
    };
    format!(
        "{what}: {percent}% ({} of {} {unit}), {left}",
        grouped(done),
        grouped(total)
    )
}

/// The whole percent of a build `done` of `total` (0 while the total is not known).
fn build_percent(done: u64, total: u64) -> u64 {
    if total == 0 {
        return 0;
    }
    done.min(total) * 100 / total
}

/// When a table build's next line is due on a stderr that is not a terminal: at the first
/// report, at each [`BUILD_STEP_PERCENT`] step reached, and when `every` has passed since the
/// last line (never more often than that otherwise, however often the build reports).
#[derive(Debug)]
struct LinePacer {
    /// Time between two lines (`None`: no lines at all).
    every: Option<Duration>,
    /// When the last line was printed, and the step it was at.
    last: Option<(Instant, u64)>,
}

impl LinePacer {
    /// A pacer that has printed nothing yet.
    fn new(every: Option<Duration>) -> LinePacer {
        LinePacer { every, last: None }
    }

    /// Whether a line is due at `now` for a build at `percent`; if so, it counts as printed.
    fn due(&mut self, now: Instant, percent: u64) -> bool {
        let Some(every) = self.every else {
            return false;
        };
        let step = percent / BUILD_STEP_PERCENT;
        let due = match self.last {
            None => true,
            Some((at, last_step)) => step > last_step || now.duration_since(at) >= every,
        };
        if due {
            self.last = Some((now, step));
        }
        due
    }
}

/// The build under way, as shown.
struct ShownBuild {
    what: String,
    unit: String,
    started: Instant,
    /// The units done and the time since the start at the build's first report.
    base: Option<(u64, Duration)>,
    /// The bar redrawn in place, when stderr is a terminal.
    bar: Option<indicatif::ProgressBar>,
    /// When lines are printed, when it is not.
    pacer: LinePacer,
}

/// How the commands show a table build on stderr: a line with what is built, its percent and
/// the time left, redrawn in place when stderr is a terminal, else printed at the first
/// report, at every [`BUILD_STEP_PERCENT`] and every [`PROGRESS_EVERY_ENV`] seconds (`0`:
/// none).
pub struct BuildShow {
    shown: Mutex<Option<ShownBuild>>,
}

impl BuildShow {
    /// Shows nothing until a build starts.
    pub const fn new() -> BuildShow {
        BuildShow {
            shown: Mutex::new(None),
        }
    }

    /// The build under way, if any.
    fn with_shown(&self, f: impl FnOnce(&mut Option<ShownBuild>)) {
        if let Ok(mut shown) = self.shown.lock() {
            f(&mut shown);
        }
    }

    /// A build of `what`, counted in `unit`, starts.
    pub fn started(&self, what: &str, unit: &str) {
        let terminal = std::io::stderr().is_terminal();
        let bar = terminal.then(|| {
            let bar = new_bar();
            bar.set_message(build_status(
                what,
                unit,
                (0, 0),
                Duration::ZERO,
                (0, Duration::ZERO),
            ));
            bar
        });
        let every = seconds_from_env(PROGRESS_EVERY_ENV, DEFAULT_PROGRESS_EVERY)
            .unwrap_or(DEFAULT_PROGRESS_EVERY);
        let shown = ShownBuild {
            what: what.to_string(),
            unit: unit.to_string(),
            started: Instant::now(),
            base: None,
            bar,
            pacer: LinePacer::new((!every.is_zero()).then_some(every)),
        };
        self.with_shown(|slot| *slot = Some(shown));
    }

    /// `done` of `total` units of the build are done.
    pub fn progress(&self, done: u64, total: u64) {
        self.with_shown(|slot| {
            let Some(shown) = slot else {
                return;
            };
            let now = Instant::now();
            let elapsed = now.duration_since(shown.started);
            let base = *shown.base.get_or_insert((done, elapsed));
            let line = build_status(&shown.what, &shown.unit, (done, total), elapsed, base);
            match &shown.bar {
                Some(bar) => {
                    bar.set_length(total);
                    bar.set_position(done.min(total));
                    bar.set_message(line);
                }
                None => {
                    if shown.pacer.due(now, build_percent(done, total)) {
                        notice(&line);
                    }
                }
            }
        });
    }

    /// The build ended (finished or stopped): its bar is cleared.
    pub fn finished(&self) {
        self.with_shown(|slot| {
            if let Some(bar) = slot.take().and_then(|shown| shown.bar) {
                bar.finish_and_clear();
            }
        });
    }
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

/// The tables layer's notices on stderr (`dicelens: ...`) and its builds' progress as
/// [`BuildShow`] shows it.
pub struct TerminalProgress {
    build: BuildShow,
}

/// The commands' [`TerminalProgress`].
pub static TERMINAL: TerminalProgress = TerminalProgress {
    build: BuildShow::new(),
};

impl dicelens::tables::Progress for TerminalProgress {
    fn notice(&self, message: &str) {
        notice(message);
    }

    fn build_started(&self, what: &str, unit: &str) {
        self.build.started(what, unit);
    }

    fn build_progress(&self, done: u64, total: u64) {
        self.build.progress(done, total);
    }

    fn build_finished(&self) {
        self.build.finished();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_status_names_the_build_its_percent_and_the_time_left() {
        let s = Duration::from_secs;
        let start = (0, Duration::ZERO);
        // (done, total), elapsed, first report, the line.
        let cases = [
            // Before the first report, the total is not known.
            ((0, 0), s(0), start, "starting"),
            (
                (0, 2_000),
                s(3),
                start,
                "0% (0 of 2,000 states), time left not known yet",
            ),
            // A quarter done in 10 s: three quarters left at the same rate, 30 s.
            (
                (500, 2_000),
                s(10),
                start,
                "25% (500 of 2,000 states), about 30s left",
            ),
            // Under 1% measured: no estimate from so little.
            (
                (46, 828_416),
                s(2),
                start,
                "0% (46 of 828,416 states), time left not known yet",
            ),
            // The rate counts only the work since the first report (here 500 units resumed
            // from an earlier build, reported at 1 s): 500 more in 10 s, 1,000 left, 20 s.
            (
                (1_000, 2_000),
                s(11),
                (500, s(1)),
                "50% (1,000 of 2,000 states), about 20s left",
            ),
            (
                (1_999, 2_000),
                s(100),
                start,
                "99% (1,999 of 2,000 states), about 1s left",
            ),
            (
                (2_000, 2_000),
                s(95),
                start,
                "100% (2,000 of 2,000 states), done in 1m35s",
            ),
            // More reported than the total never reads as more than 100%.
            ((7, 5), s(1), start, "100% (5 of 5 states), done in 1s"),
        ];
        for (progress, elapsed, base, line) in cases {
            assert_eq!(
                build_status(
                    "building the yahtzee table",
                    "states",
                    progress,
                    elapsed,
                    base
                ),
                format!("building the yahtzee table: {line}")
            );
        }
        assert_eq!(build_percent(3, 0), 0);
        assert_eq!(build_percent(1, 3), 33);
    }

    #[test]
    fn build_lines_come_at_each_step_and_interval_never_more_often() {
        let every = Duration::from_secs(5);
        let mut pacer = LinePacer::new(Some(every));
        let t0 = Instant::now();
        // The first report prints; reports within the same step and interval do not.
        assert!(pacer.due(t0, 0));
        assert!(!pacer.due(t0 + Duration::from_millis(10), 3));
        assert!(!pacer.due(t0 + Duration::from_millis(20), 9));
        // A new step prints at once, even a moment later.
        assert!(pacer.due(t0 + Duration::from_millis(30), 10));
        assert!(!pacer.due(t0 + Duration::from_millis(40), 19));
        // A slow step prints once an interval has passed since the last line.
        assert!(!pacer.due(t0 + Duration::from_millis(4_900), 19));
        assert!(pacer.due(t0 + Duration::from_millis(5_100), 19));
        assert!(!pacer.due(t0 + Duration::from_millis(5_200), 19));
        // 100% prints, once.
        assert!(pacer.due(t0 + Duration::from_millis(5_300), 100));
        assert!(!pacer.due(t0 + Duration::from_millis(5_400), 100));
        // A thousand reports in a second give at most one line per step.
        let mut pacer = LinePacer::new(Some(every));
        let lines = (0..=1_000u64)
            .filter(|&i| pacer.due(t0 + Duration::from_millis(i), i / 10))
            .count() as u64;
        assert_eq!(lines, 100 / BUILD_STEP_PERCENT + 1);
        // `0` seconds: no lines at all.
        let mut silent = LinePacer::new(None);
        assert!(!silent.due(t0, 0));
        assert!(!silent.due(t0 + every, 100));
    }
}
