//! The import direction of the library (issue 31): no import circles, and no import back up
//! the pipeline. Reads every `src/**/*.rs`, takes each module's paths to other modules of the
//! crate (`use crate::...`, `crate::x::` and `super::` paths in code, `dicelens::` paths in
//! the binary; comments, string literals and `#[cfg(test)]` items left out), and checks
//! - that the top-level modules follow the declared layer order [`LAYERS`]: a module imports
//!   only modules listed before it;
//! - that there is no circle among the top-level modules, nor among the submodules of any
//!   module (its own file counted as one of them: a submodule that imports an item of its
//!   parent, while the parent imports the submodule, is a circle).
//!
//! There are no exceptions: an edge that breaks the order is a failure.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The top-level modules from the bottom of the pipeline to the top: each may import only
/// the modules before it. Every module of `src/` must be listed (a new one takes its place
/// here). `lib` (the crate root: module list and re-exports) is left out.
const LAYERS: &[&str] = &[
    // Utilities the whole library uses: names of paths, hashes, files read and written.
    "path_name",
    "game_hash",
    "files",
    "output",
    // The game: dice, rules, values, their table files.
    "dice",
    "rules",
    "solve",
    "tables",
    "position",
    // A game record replayed, read from logs, rated.
    "replay",
    "corpus",
    "rate",
    "registry",
    "rows",
    "evaluate",
    // Ratings added up, screened, ranked.
    "aggregate",
    "screening",
    "ranking",
    // Workflows over corpora.
    "pipeline",
    "worst",
    "store",
    "merge",
    "compare",
    "fairness",
    "simulate",
    "selfplay",
    // Presentation, then the command line.
    "report",
    // One library call per command: the engine's workflows, which hand their results to report.
    "workflow",
    // The review board in the browser: a server over the workflows and the reports.
    "serve",
    "cli",
    "main",
];

/// The crate's source directory.
fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The module a file of `src/` is: `report::html` for `src/report/html.rs`, `report` for
/// `src/report/mod.rs`, `main` and `lib` for the crate roots.
fn module_of(relative: &Path) -> String {
    let mut parts: Vec<String> = relative
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts.join("::")
}

/// `text` without comments, with every string and character literal emptied (so braces and
/// paths inside them are not read as code).
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && !chars[..i]
                .last()
                .is_some_and(|p| p.is_alphanumeric() || *p == '_')
        {
            // A raw string: r"...", r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (0..hashes).all(|k| chars.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{..}') or a lifetime ('a).
            if next == Some('\\') {
                let mut j = i + 3;
                while j < chars.len() && chars[j] != '\'' {
                    j += 1;
                }
                out.push_str("' '");
                i = j + 1;
            } else if chars.get(i + 2) == Some(&'\'') {
                out.push_str("' '");
                i += 3;
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// `code` without the items marked `#[cfg(test)]` (a test module, a test-only import or
/// function): from the attribute to the `;` or the closing brace of the item.
fn without_test_items(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let item = &rest[at + "#[cfg(test)]".len()..];
        let mut depth = 0usize;
        let mut end = item.len();
        for (i, c) in item.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = i + 1;
                    break;
                }
                _ => {}
            }
        }
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

/// The paths starting at `prefix` (`crate::`, `super::`, `dicelens::`) in `code`, with the
/// prefix, groups expanded: `use crate::rules::{jamb::JambSheet, Choice}` gives
/// `crate::rules::jamb::JambSheet` and `crate::rules::Choice`.
fn paths_after(code: &str, prefix: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find(prefix) {
        let start = from + at;
        from = start + prefix.len();
        let before = code[..start].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let mut chars = code[from..].chars().peekable();
        expand(
            &mut chars,
            prefix.trim_end_matches("::").to_string(),
            &mut paths,
        );
    }
    paths
}

/// Reads one path (or group of paths) after `base::` from `chars` into `paths`.
fn expand(chars: &mut std::iter::Peekable<std::str::Chars>, base: String, paths: &mut Vec<String>) {
    let mut path = base;
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek() == Some(&'{') {
            chars.next();
            loop {
                expand(chars, path.clone(), paths);
                while chars.peek().is_some_and(|c| c.is_whitespace()) {
                    chars.next();
                }
                match chars.next() {
                    Some(',') => {
                        while chars.peek().is_some_and(|c| c.is_whitespace()) {
                            chars.next();
                        }
                        if chars.peek() == Some(&'}') {
                            chars.next();
                            return;
                        }
                    }
                    _ => return,
                }
            }
        }
        let mut segment = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_alphanumeric() || c == '_' {
                segment.push(c);
                chars.next();
            } else {
                break;
            }
        }
        if segment.is_empty() {
            paths.push(path);
            return;
        }
        path = format!("{path}::{segment}");
        let mut ahead = chars.clone();
        if ahead.next() == Some(':') && ahead.next() == Some(':') {
            chars.next();
            chars.next();
        } else {
            // `as name`, `;`, `,`, `(`: the path ends here.
            paths.push(path);
            return;
        }
    }
}

/// The module a path refers to, written from module `from`: the longest prefix of it that is
/// a module of `modules` (`crate::rules::jamb::JambSheet` -> `rules::jamb`; `super::Unit`
/// from `report::html` -> `report`). `None` for the crate root's own items.
fn target(path: &str, from: &str, modules: &BTreeSet<String>) -> Option<String> {
    let mut segments: Vec<&str> = path.split("::").collect();
    let mut resolved: Vec<String> = Vec::new();
    match segments.first().copied() {
        Some("crate") | Some("dicelens") => {
            segments.remove(0);
        }
        Some("super") => {
            resolved = from.split("::").map(str::to_string).collect();
            while segments.first() == Some(&"super") {
                segments.remove(0);
                resolved.pop();
            }
        }
        _ => return None,
    }
    resolved.extend(segments.iter().map(|s| s.to_string()));
    (1..=resolved.len())
        .rev()
        .map(|n| resolved[..n].join("::"))
        .find(|m| modules.contains(m))
}

/// Every module of `src/` and the modules each refers to (itself left out).
fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = src_dir();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let named: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|path| {
            let relative = path.strip_prefix(&src).expect("under src").to_path_buf();
            (module_of(&relative), path)
        })
        .collect();
    let modules: BTreeSet<String> = named.iter().map(|(m, _)| m.clone()).collect();
    let mut graph = BTreeMap::new();
    for (module, path) in &named {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let code = without_test_items(&code_only(&text));
        let binary = module == "main" || module.starts_with("cli");
        let mut edges = BTreeSet::new();
        let prefixes: &[&str] = if binary {
            &["crate::", "super::", "dicelens::"]
        } else {
            &["crate::", "super::"]
        };
        for prefix in prefixes {
            for p in paths_after(&code, prefix) {
                if let Some(to) = target(&p, module, &modules) {
                    if &to != module {
                        edges.insert(to);
                    }
                }
            }
        }
        graph.insert(module.clone(), edges);
    }
    graph
}

/// The first segment of a module path.
fn top(module: &str) -> &str {
    module.split("::").next().unwrap_or(module)
}

/// The edges of `graph` seen among the children of `parent` (`""`: the top-level modules):
/// each module below `parent` counted as the child it is in, `parent`'s own file as `parent`.
fn level(
    graph: &BTreeMap<String, BTreeSet<String>>,
    parent: &str,
) -> BTreeMap<String, BTreeSet<String>> {
    let depth = if parent.is_empty() {
        1
    } else {
        parent.split("::").count() + 1
    };
    let node = |m: &str| -> Option<String> {
        if m == parent {
            return Some(m.to_string());
        }
        let inside = parent.is_empty() || m.starts_with(&format!("{parent}::"));
        inside.then(|| m.split("::").take(depth).collect::<Vec<_>>().join("::"))
    };
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, tos) in graph {
        let Some(a) = node(from) else { continue };
        for to in tos {
            let Some(b) = node(to) else { continue };
            if a != b {
                edges.entry(a.clone()).or_default().insert(b);
            }
        }
    }
    edges
}

/// A circle of `edges`, as its modules in order, if there is one.
fn circle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    /// Depth-first search: 1 on the current path, 2 done.
    fn visit(
        m: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(m.to_string(), 1);
        path.push(m.to_string());
        for next in edges.get(m).into_iter().flatten() {
            match state.get(next.as_str()) {
                Some(1) => {
                    let at = path.iter().position(|p| p == next).unwrap_or(0);
                    let mut found = path[at..].to_vec();
                    found.push(next.clone());
                    return Some(found);
                }
                Some(_) => {}
                None => {
                    if let Some(found) = visit(next, edges, state, path) {
                        return Some(found);
                    }
                }
            }
        }
        path.pop();
        state.insert(m.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in edges.keys() {
        if !state.contains_key(m.as_str()) {
            if let Some(found) = visit(m, edges, &mut state, &mut Vec::new()) {
                return Some(found);
            }
        }
    }
    None
}

/// The layer violations of `graph`: edges from a top-level module to one listed after it in
/// [`LAYERS`], and modules missing from it.
fn upward_imports(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let rank = |m: &str| LAYERS.iter().position(|l| *l == m);
    let mut problems = Vec::new();
    for (from, tos) in graph {
        let a = top(from);
        if a == "lib" {
            continue;
        }
        let Some(ra) = rank(a) else {
            problems.push(format!("{from}: module {a} has no place in LAYERS"));
            continue;
        };
        for to in tos {
            let b = top(to);
            if a == b || b == "lib" {
                continue;
            }
            match rank(b) {
                Some(rb) if rb < ra => {}
                _ => problems.push(format!("{from} imports {to}, which is above {a} in LAYERS")),
            }
        }
    }
    problems
}

#[test]
fn no_import_goes_back_up_the_pipeline() {
    let graph = module_graph();
    assert!(graph.len() > 40, "the sources were read: {graph:?}");
    let problems = upward_imports(&graph);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn no_import_circles() {
    let graph = module_graph();
    let mut parents: BTreeSet<String> = BTreeSet::from([String::new()]);
    for m in graph.keys() {
        let parts: Vec<&str> = m.split("::").collect();
        for n in 1..parts.len() {
            parents.insert(parts[..n].join("::"));
        }
    }
    for parent in &parents {
        let edges = level(&graph, parent);
        if let Some(found) = circle(&edges) {
            panic!(
                "an import circle among the modules of {}: {}",
                if parent.is_empty() { "src" } else { parent },
                found.join(" -> ")
            );
        }
    }
}

#[test]
fn paths_are_read_as_the_compiler_reads_them() {
    let code = code_only(
        "use crate::rules::{jamb::JambSheet, Choice};\n// crate::report::x\nlet s = \"crate::cli\";\n\
         #[cfg(test)]\nmod tests { use crate::simulate::x; }\nfn f() { super::svg::line(); }",
    );
    let code = without_test_items(&code);
    let mut paths = paths_after(&code, "crate::");
    paths.extend(paths_after(&code, "super::"));
    assert_eq!(
        paths,
        [
            "crate::rules::jamb::JambSheet",
            "crate::rules::Choice",
            "super::svg::line"
        ]
    );
    let modules: BTreeSet<String> = ["report", "report::svg", "rules", "rules::jamb"]
        .map(String::from)
        .into();
    assert_eq!(
        target("super::svg::line", "report::html", &modules).as_deref(),
        Some("report::svg")
    );
    assert_eq!(
        target("super::Unit", "report::html", &modules).as_deref(),
        Some("report")
    );
    assert_eq!(
        target("crate::rules::jamb::JambSheet", "x", &modules).as_deref(),
        Some("rules::jamb")
    );
    // A circle is found, and an upward import named.
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    edges.entry("a".into()).or_default().insert("b".into());
    assert_eq!(circle(&edges), None);
    edges.entry("b".into()).or_default().insert("a".into());
    assert_eq!(
        circle(&edges),
        Some(vec!["a".into(), "b".into(), "a".into()])
    );
    let graph = BTreeMap::from([("dice".to_string(), BTreeSet::from(["report".to_string()]))]);
    assert_eq!(upward_imports(&graph).len(), 1);
}
