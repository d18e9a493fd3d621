//! `dicelens serve`: a local web application over the library. The analysis board opens a game
//! (from a log, an analysis directory's games or pasted text), steps through its decisions
//! with the dice and the sheets drawn and every option valued (`board`), and follows any
//! option (what-if); play and entry modes record games as YGN (`sessions`). The server answers
//! only what it was given: the board's page and script (`report::board`), the API (`api`) and,
//! read-only, the files of the analysis directories named on the command line. Game and
//! session ids in URLs are opaque keys from the server's own lists, never paths.

pub mod api;
mod board;
pub mod sessions;

use crate::corpus::LogFile;
use crate::game_hash::{content_hash, ContentHash};
use crate::pipeline::OracleRegistry;
use crate::rate::OracleSpec;
use crate::report::board as assets;
use crate::solve::match_points::Method;
use api::{ChooseRequest, GameSummary, GameView, NewSession, RollRequest};
use axum::extract::{DefaultBodyLimit, Path as UrlPath, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use board::OpenGame;
use dicelens_parsers::{Format, GameRecord};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha12Rng;
use sessions::{Mode, Refusal, Session};
use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::net::SocketAddr;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// Largest request body the server reads (a pasted log, a request): 1 MiB; larger ones get
/// 413.
pub const BODY_LIMIT: usize = 1 << 20;

/// What `serve` serves and how.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// Log files, and analysis directories (their games and their pages).
    pub inputs: Vec<PathBuf>,
    /// The address to listen on (port 0: any free port).
    pub address: SocketAddr,
    /// The table directory (`None`: the default one).
    pub tables: Option<PathBuf>,
    /// The oracle of games of several players.
    pub oracle: OracleSpec,
    /// Where play and entry games are recorded; without it, both modes are refused.
    pub record: Option<PathBuf>,
}

/// Why the server could not start or stopped.
#[derive(Debug)]
pub struct ServeError(pub String);

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ServeError {}

/// A game the board can open.
struct GameEntry {
    summary: GameSummary,
    record: GameRecord,
}

/// The server's state: its games, the tables, the sessions.
struct App {
    games: Mutex<Vec<GameEntry>>,
    opened: Mutex<HashMap<String, Arc<OpenGame>>>,
    registry: Mutex<OracleRegistry>,
    sessions: Mutex<HashMap<String, Session>>,
    rng: Mutex<ChaCha12Rng>,
    method: Method,
    record: Option<PathBuf>,
    reports: Vec<PathBuf>,
    counter: AtomicU64,
}

/// A lock, even one a panicking request left behind (the data is still consistent: every
/// change is made whole under the lock).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// Serves until the process is stopped; `listening` is told the address once the socket is
/// bound (before the first request is answered), with a line per game of the logs that could
/// not be read (file, line, game and what was expected: the board lists the others).
pub fn serve(
    options: ServeOptions,
    listening: impl FnOnce(SocketAddr, &[String]),
) -> Result<(), ServeError> {
    let mut games = Vec::new();
    let mut skipped = Vec::new();
    let mut reports = Vec::new();
    for input in &options.inputs {
        if input.is_dir() {
            let games_csv = input.join("games.csv");
            if !games_csv.is_file() {
                return Err(ServeError(format!(
                    "{}: not an analysis directory (no games.csv); give log files or a directory \
                     `analyze --out` wrote",
                    input.display()
                )));
            }
            let root = input
                .canonicalize()
                .map_err(|e| ServeError(format!("{}: {e}", input.display())))?;
            add_analysis_games(&mut games, &mut skipped, &games_csv)?;
            reports.push(root);
        } else {
            add_log_games(&mut games, &mut skipped, input, None)?;
        }
    }
    if let Some(dir) = &options.record {
        crate::output::make_dir(dir).map_err(|e| ServeError(e.to_string()))?;
    }
    let app = Arc::new(App {
        games: Mutex::new(games),
        opened: Mutex::new(HashMap::new()),
        registry: Mutex::new(OracleRegistry::new(
            options.tables.as_deref(),
            options.oracle,
        )),
        sessions: Mutex::new(HashMap::new()),
        rng: Mutex::new(ChaCha12Rng::from_entropy()),
        method: options.oracle.method,
        record: options.record.clone(),
        reports,
        counter: AtomicU64::new(0),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_io()
        .build()
        .map_err(|e| ServeError(format!("cannot start the server: {e}")))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(options.address)
            .await
            .map_err(|e| ServeError(format!("cannot listen on {}: {e}", options.address)))?;
        let address = listener
            .local_addr()
            .map_err(|e| ServeError(format!("cannot listen on {}: {e}", options.address)))?;
        listening(address, &skipped);
        axum::serve(listener, router(app))
            .await
            .map_err(|e| ServeError(format!("the server stopped: {e}")))
    })
}

/// The routes: the page and its assets, the API, the analysis directories' files; nothing
/// else (404).
fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/board", get(page))
        .route("/board.js", get(script))
        .route("/board.css", get(style))
        .route("/api/games", get(list_games).post(paste_games))
        .route("/api/games/:id", get(game_view))
        .route("/api/games/:id/decisions/:index", get(decision_view))
        .route("/api/sessions", post(new_session))
        .route("/api/sessions/:id", get(session_view))
        .route("/api/sessions/:id/roll", post(session_roll))
        .route("/api/sessions/:id/choose", post(session_choose))
        .route("/reports/:n/*path", get(report_file))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(app)
}

/// An error answered as JSON `{"error": ...}` with its status.
struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(serde_json::json!({ "error": self.1 }))).into_response()
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        ApiError(StatusCode::BAD_REQUEST, r.0)
    }
}

/// 404 for anything not served.
async fn not_found() -> ApiError {
    ApiError(StatusCode::NOT_FOUND, "not found".into())
}

/// The board's page.
async fn page() -> Response {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        assets::PAGE,
    )
        .into_response()
}

/// The board's script.
async fn script() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        assets::SCRIPT,
    )
        .into_response()
}

/// The board's style sheet.
async fn style() -> Response {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        assets::STYLE,
    )
        .into_response()
}

/// Runs `work` on a thread that may block (valuing positions, loading tables).
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
}

/// `GET /api/games`: every game the board can open.
async fn list_games(State(app): State<Arc<App>>) -> Json<Vec<GameSummary>> {
    Json(lock(&app.games).iter().map(|g| g.summary.clone()).collect())
}

/// `POST /api/games`: the games of a pasted log (any format the tool reads), added to the
/// list; answers their summaries.
async fn paste_games(
    State(app): State<Arc<App>>,
    body: String,
) -> Result<Json<Vec<GameSummary>>, ApiError> {
    let Some(format) = Format::detect(body.as_bytes()) else {
        return Err(ApiError(
            StatusCode::BAD_REQUEST,
            "the pasted text is no game log of a known format".into(),
        ));
    };
    let mut added = Vec::new();
    let mut errors = Vec::new();
    for game in format.games(body.as_bytes(), "pasted") {
        match game {
            Ok(record) => added.push(record),
            Err(e) => errors.push(e.to_string()),
        }
    }
    if added.is_empty() {
        let why = errors
            .into_iter()
            .next()
            .unwrap_or_else(|| "no game".into());
        return Err(ApiError(StatusCode::BAD_REQUEST, why));
    }
    let mut games = lock(&app.games);
    let mut summaries = Vec::new();
    for record in added {
        let summary = summary_of(&record, "pasted");
        if !games.iter().any(|g| g.summary.id == summary.id) {
            games.push(GameEntry {
                summary: summary.clone(),
                record,
            });
        }
        summaries.push(summary);
    }
    Ok(Json(summaries))
}

/// The game `id`, opened (replayed and rated) once and kept.
fn opened(app: &App, id: &str) -> Result<Arc<OpenGame>, ApiError> {
    if let Some(game) = lock(&app.opened).get(id) {
        return Ok(Arc::clone(game));
    }
    let record = lock(&app.games)
        .iter()
        .find(|g| g.summary.id == id)
        .map(|g| g.record.clone())
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no game {id}")))?;
    let game = Arc::new(OpenGame::open(record, &mut lock(&app.registry), app.method));
    lock(&app.opened).insert(id.to_string(), Arc::clone(&game));
    Ok(game)
}

/// `GET /api/games/:id`: the game's decisions in brief and its chart.
async fn game_view(
    State(app): State<Arc<App>>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<GameView>, ApiError> {
    blocking(move || {
        let game = opened(&app, &id)?;
        let summary = lock(&app.games)
            .iter()
            .find(|g| g.summary.id == id)
            .map(|g| g.summary.clone())
            .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no game {id}")))?;
        let seats = game.replayed.seats.max(1);
        let unit = board::unit_name(game.replayed.sheets.get(..seats).unwrap_or(&[]));
        Ok(Json(GameView {
            game: summary,
            decisions: game.briefs(),
            unit,
            note: game.note.clone(),
        }))
    })
    .await
}

/// `GET /api/games/:id/decisions/:index`: one decision drawn and valued.
async fn decision_view(
    State(app): State<Arc<App>>,
    UrlPath((id, index)): UrlPath<(String, usize)>,
) -> Result<Json<api::DecisionView>, ApiError> {
    blocking(move || {
        let game = opened(&app, &id)?;
        let view = game.decision(index, &mut lock(&app.registry), app.method);
        view.map(Json)
            .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no decision {index}")))
    })
    .await
}

/// A new key: 16 hex digits from the server's generator.
fn new_key(app: &App) -> String {
    format!("{:016x}", lock(&app.rng).gen::<u64>())
}

/// A new file in the record directory, named after the mode, the time and a counter.
fn record_file(app: &App, mode: Mode) -> Result<PathBuf, ApiError> {
    let Some(dir) = &app.record else {
        return Err(ApiError(
            StatusCode::CONFLICT,
            format!(
                "{} mode records games: start serve with --record DIR",
                mode.name()
            ),
        ));
    };
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    loop {
        let n = app.counter.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!("{}-{seconds}-{n}.ygn", mode.name()));
        if !path.exists() {
            return Ok(path);
        }
    }
}

/// `POST /api/sessions`: a new play, entry or what-if game.
async fn new_session(
    State(app): State<Arc<App>>,
    Json(request): Json<NewSession>,
) -> Result<Json<api::SessionView>, ApiError> {
    blocking(move || {
        let id = new_key(&app);
        let mut session = match request.mode.as_str() {
            "play" | "entry" => {
                let mode = if request.mode == "play" {
                    Mode::Play
                } else {
                    Mode::Entry
                };
                let file = record_file(&app, mode)?;
                let coach = request.coach.then_some(request.threshold.unwrap_or(0.0));
                Session::new(
                    id.clone(),
                    mode,
                    request.rules.as_deref().unwrap_or("yahtzee"),
                    request.players,
                    request.oracle_seats,
                    coach,
                    Some(file),
                )?
            }
            "whatif" => {
                let (Some(game_id), Some(index), Some(option)) =
                    (&request.game, request.decision, &request.option)
                else {
                    return Err(ApiError(
                        StatusCode::BAD_REQUEST,
                        "what-if needs game, decision and option".into(),
                    ));
                };
                let game = opened(&app, game_id)?;
                let d = game.replayed.decisions.get(index).ok_or_else(|| {
                    ApiError(StatusCode::NOT_FOUND, format!("no decision {index}"))
                })?;
                let seats = game.replayed.seats.max(1);
                let turn = usize::from(d.turn);
                let sheets = game
                    .replayed
                    .sheets
                    .get(turn * seats..(turn + 1) * seats)
                    .unwrap_or(&[])
                    .to_vec();
                Session::what_if(
                    id.clone(),
                    &game.record,
                    turn,
                    d.roll_number,
                    sheets,
                    game.replayed.box_points.clone(),
                    option,
                    &mut lock(&app.registry),
                    app.method,
                )?
            }
            other => {
                return Err(ApiError(
                    StatusCode::BAD_REQUEST,
                    format!("mode '{other}': play, entry or whatif"),
                ))
            }
        };
        session.play_oracle(&mut lock(&app.registry), app.method, &mut *lock(&app.rng))?;
        let view = session.view(&mut lock(&app.registry), app.method);
        lock(&app.sessions).insert(id, session);
        Ok(Json(view))
    })
    .await
}

/// Runs `act` on session `id` (then the oracle's seats), and answers the session's view.
fn on_session(
    app: &App,
    id: &str,
    act: impl FnOnce(&mut Session, &mut OracleRegistry, &mut ChaCha12Rng) -> Result<(), Refusal>,
) -> Result<Json<api::SessionView>, ApiError> {
    let mut sessions = lock(&app.sessions);
    let session = sessions
        .get_mut(id)
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no session {id}")))?;
    let mut registry = lock(&app.registry);
    let mut rng = lock(&app.rng);
    act(session, &mut registry, &mut rng)?;
    session.play_oracle(&mut registry, app.method, &mut *rng)?;
    Ok(Json(session.view(&mut registry, app.method)))
}

/// `GET /api/sessions/:id`: the session's state.
async fn session_view(
    State(app): State<Arc<App>>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<api::SessionView>, ApiError> {
    blocking(move || on_session(&app, &id, |_, _, _| Ok(()))).await
}

/// `POST /api/sessions/:id/roll`: the dice rolled (play) or entered (entry).
async fn session_roll(
    State(app): State<Arc<App>>,
    UrlPath(id): UrlPath<String>,
    Json(request): Json<RollRequest>,
) -> Result<Json<api::SessionView>, ApiError> {
    blocking(move || on_session(&app, &id, |s, _, rng| s.roll(request.dice.as_deref(), rng))).await
}

/// `POST /api/sessions/:id/choose`: an option taken.
async fn session_choose(
    State(app): State<Arc<App>>,
    UrlPath(id): UrlPath<String>,
    Json(request): Json<ChooseRequest>,
) -> Result<Json<api::SessionView>, ApiError> {
    let method = app.method;
    blocking(move || {
        on_session(&app, &id, |s, registry, _| {
            s.choose(&request.option, registry, method)
        })
    })
    .await
}

/// `GET /reports/:n/*path`: a file of the `n`th analysis directory given (read-only); a path
/// ending in `board` is the board's page (the pages' links into the board). Paths that leave
/// the directory (`..`, absolute, a link pointing outside) are refused; directories are not
/// listed.
async fn report_file(
    State(app): State<Arc<App>>,
    UrlPath((n, path)): UrlPath<(usize, String)>,
) -> Result<Response, ApiError> {
    let refused = || ApiError(StatusCode::NOT_FOUND, "not found".into());
    let root = app.reports.get(n).ok_or_else(refused)?;
    let relative = Path::new(&path);
    let plain = !path.is_empty()
        && !path.contains('\\')
        && !path.contains('\0')
        && relative
            .components()
            .all(|c| matches!(c, Component::Normal(_)));
    if !plain {
        return Err(ApiError(StatusCode::FORBIDDEN, "forbidden".into()));
    }
    if relative.file_name().is_some_and(|name| name == "board") {
        return Ok(page().await);
    }
    let full = root.join(relative).canonicalize().map_err(|_| refused())?;
    if !full.starts_with(root) {
        return Err(ApiError(StatusCode::FORBIDDEN, "forbidden".into()));
    }
    if !full.is_file() {
        return Err(refused());
    }
    let bytes = std::fs::read(&full).map_err(|_| refused())?;
    let kind = match full.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("json") => "application/json",
        Some("csv") => "text/csv; charset=utf-8",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    };
    Ok(([(header::CONTENT_TYPE, kind)], bytes).into_response())
}

/// The list entry of a game read from `source`.
fn summary_of(record: &GameRecord, source: &str) -> GameSummary {
    let ContentHash(hash) = content_hash(record);
    GameSummary {
        id: format!("{hash:016x}"),
        game_id: record.provenance.game_id.clone(),
        players: record.players.clone(),
        rules: record.rules.clone(),
        result: record
            .result
            .as_ref()
            .map(|r| r.iter().map(|&t| i64::from(t)).collect()),
        source: source.to_string(),
    }
}

/// Adds the games of the log `path` (those whose content hash is in `only`, when given),
/// each once.
fn add_log_games(
    games: &mut Vec<GameEntry>,
    skipped: &mut Vec<String>,
    path: &Path,
    only: Option<&BTreeSet<u64>>,
) -> Result<(), ServeError> {
    let file = LogFile::open(path, None).map_err(|e| ServeError(e.to_string()))?;
    let name = file.name().to_string();
    file.for_each_game(|game| {
        let record = match game {
            Ok(record) => record,
            Err(e) => {
                skipped.push(format!("{name}: a game skipped: {e}"));
                return;
            }
        };
        if only.is_some_and(|only| !only.contains(&content_hash(record).0)) {
            return;
        }
        let summary = summary_of(record, &name);
        if !games.iter().any(|g| g.summary.id == summary.id) {
            games.push(GameEntry {
                summary,
                record: record.clone(),
            });
        }
    });
    Ok(())
}

/// Adds the games an analysis directory rated (its `games.csv`), read from their logs.
fn add_analysis_games(
    games: &mut Vec<GameEntry>,
    skipped: &mut Vec<String>,
    games_csv: &Path,
) -> Result<(), ServeError> {
    let mut logs: Vec<(PathBuf, BTreeSet<u64>)> = Vec::new();
    crate::store::games::read_game_rows(games_csv, |row| {
        let Some(ContentHash(hash)) = row.content_hash else {
            return;
        };
        let path = if !row.absolute_path.is_empty() && Path::new(&row.absolute_path).is_file() {
            PathBuf::from(&row.absolute_path)
        } else {
            PathBuf::from(&row.file)
        };
        match logs.iter_mut().find(|(p, _)| *p == path) {
            Some((_, hashes)) => {
                hashes.insert(hash);
            }
            None => logs.push((path, BTreeSet::from([hash]))),
        }
    })
    .map_err(|e| ServeError(format!("{}: {e}", games_csv.display())))?;
    for (path, hashes) in logs {
        add_log_games(games, skipped, &path, Some(&hashes))?;
    }
    Ok(())
}
