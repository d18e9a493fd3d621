//! Golden outputs: every command of `tests/golden/commands.txt` is run in a fresh directory
//! (with the fixtures beside it), and everything it prints and writes must equal, byte for byte,
//! what the binary of the last commit before the redesign (issue 11) printed and wrote, kept in
//! `tests/golden/expected/`. `DICELENS_BLESS=1 cargo test --test suite golden` rewrites them; do that
//! only for a change meant to alter an output, and say so in the commit. The absolute paths
//! outputs record (`games.csv`'s `absolute_path`) are compared with the directory the commands
//! ran in written `$WORK`, and the repository (where the fixtures are) `$REPO`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The golden directory.
fn golden() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// Every regular file under `dir` (not following the fixtures link), by relative path.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap())
            .collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let path = entry.path();
            let kind = entry.file_type().unwrap();
            if kind.is_symlink() {
                continue;
            }
            if kind.is_dir() {
                walk(root, &path, out);
            } else {
                let name = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// `bytes` with every occurrence of each path of `places` replaced by its name, longest path
/// first.
fn placeless(bytes: &[u8], places: &[(String, &str)]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let mut places = places.to_vec();
    places.sort_by_key(|(path, _)| std::cmp::Reverse(path.len()));
    for (path, name) in places {
        let (path, name) = (path.as_bytes(), name.as_bytes());
        let mut replaced = Vec::with_capacity(out.len());
        let mut i = 0;
        while i < out.len() {
            if out[i..].starts_with(path) {
                replaced.extend_from_slice(name);
                i += path.len();
            } else {
                replaced.push(out[i]);
                i += 1;
            }
        }
        out = replaced;
    }
    out
}

/// stderr without the notices of a table being built, which depend on what earlier tests built.
fn stable_stderr(stderr: &[u8]) -> String {
    crate::common::text(stderr)
        .lines()
        .filter(|l| !l.starts_with("dicelens: table ") && !l.starts_with("dicelens: cannot save"))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The size each output directory's manifest (`.dicelens-outputs`) records, made that of the
/// file with its places replaced (`games.csv` holds absolute paths, whose length depends on
/// where the run and the repository are).
fn manifests_of_placeless_files(got: &mut BTreeMap<String, Vec<u8>>) {
    let manifests: Vec<String> = got
        .keys()
        .filter(|name| name.ends_with("/.dicelens-outputs"))
        .cloned()
        .collect();
    for name in manifests {
        let dir = name.trim_end_matches(".dicelens-outputs");
        let mut manifest: serde_json::Value = serde_json::from_slice(&got[&name]).unwrap();
        if let Some(files) = manifest["files"].as_object_mut() {
            for (file, size) in files.iter_mut() {
                if let Some(content) = got.get(&format!("{dir}{file}")) {
                    *size = serde_json::json!(content.len());
                }
            }
        }
        let text = serde_json::to_string_pretty(&manifest).unwrap() + "\n";
        got.insert(name, text.into_bytes());
    }
}

#[test]
fn every_output_equals_the_golden_files() {
    let manifest = std::fs::read_to_string(golden().join("commands.txt")).unwrap();
    let work = tempfile::tempdir().unwrap();
    let dir = work.path();
    std::os::unix::fs::symlink(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"),
        dir.join("fixtures"),
    )
    .unwrap();
    for sub in ["sim", "out"] {
        std::fs::create_dir(dir.join(sub)).unwrap();
    }
    for line in manifest.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (name, args) = line.split_once(' ').unwrap();
        // The shell expands the globs, as it does for a user.
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("exec \"$DICELENS_BIN\" {args}"))
            .current_dir(dir)
            .env("DICELENS_BIN", env!("CARGO_BIN_EXE_dicelens"))
            .env("DICELENS_TABLES", crate::common::tables_dir())
            .env("RAYON_NUM_THREADS", "2")
            .output()
            .unwrap();
        let status = out.status.code().unwrap_or(-1);
        std::fs::write(dir.join(format!("{name}.stdout")), &out.stdout).unwrap();
        std::fs::write(
            dir.join(format!("{name}.stderr")),
            format!("exit {status}\n{}", stable_stderr(&out.stderr)),
        )
        .unwrap();
    }
    let canonical = |path: &Path| path.canonicalize().unwrap().to_str().unwrap().to_string();
    let places = [
        (canonical(dir), "$WORK"),
        (canonical(Path::new(env!("CARGO_MANIFEST_DIR"))), "$REPO"),
    ];
    let mut got: BTreeMap<String, Vec<u8>> = files(dir)
        .into_iter()
        .map(|(name, bytes)| (name, placeless(&bytes, &places)))
        .collect();
    manifests_of_placeless_files(&mut got);
    let expected_dir = golden().join("expected");
    if std::env::var_os("DICELENS_BLESS").is_some() {
        let _ = std::fs::remove_dir_all(&expected_dir);
        for (name, bytes) in &got {
            let path = expected_dir.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, bytes).unwrap();
        }
        return;
    }
    let expected = files(&expected_dir);
    let mut differ = Vec::new();
    for name in expected.keys().chain(got.keys()) {
        if expected.get(name) != got.get(name) && !differ.contains(name) {
            differ.push(name.clone());
        }
    }
    assert!(
        differ.is_empty(),
        "outputs that differ from tests/golden/expected (missing, extra or changed): {differ:?}"
    );
}
