//! How the outputs name a file (a log in `games.csv`, `summary.json`, messages and pages; an
//! analysis in a merged `summary.json`): its path as text, without loss, so that `merge` can
//! open the file again by the name. A path that is UTF-8 and holds no backslash is written as
//! it is; in any other path each backslash is written `\\` and each byte that is not part of
//! UTF-8 text `\xHH` (two upper-case hex digits): the file `x<0xff>.ygn` is `x\xFF.ygn`
//! (docs/formats/analysis.md, "File names"). [`path_of_name`] reads such a name back.

use std::path::{Path, PathBuf};

/// The name the outputs give `path` (see the module documentation): the path itself when it is
/// UTF-8 without a backslash, else the path with backslashes doubled and the bytes that are
/// not UTF-8 written `\xHH`. On systems whose paths are not bytes, the path as displayed.
pub fn name_of_path(path: &Path) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let bytes = path.as_os_str().as_bytes();
        if let Ok(text) = std::str::from_utf8(bytes) {
            if !text.contains('\\') {
                return text.to_string();
            }
        }
        let mut name = String::with_capacity(bytes.len() + 8);
        for chunk in bytes.utf8_chunks() {
            for c in chunk.valid().chars() {
                match c {
                    '\\' => name.push_str("\\\\"),
                    c => name.push(c),
                }
            }
            for byte in chunk.invalid() {
                name.push_str(&format!("\\x{byte:02X}"));
            }
        }
        name
    }
    #[cfg(not(unix))]
    {
        path.display().to_string()
    }
}

/// The path a name written by [`name_of_path`] stands for: `\\` is a backslash and `\xHH` the
/// byte HH; any other backslash (in a name written by an older dicelens) stands for itself.
pub fn path_of_name(name: &str) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        if !name.contains('\\') {
            return PathBuf::from(name);
        }
        let bytes = name.as_bytes();
        let mut path = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            let escaped = match bytes[i..] {
                [b'\\', b'\\', ..] => Some((b'\\', 2)),
                [b'\\', b'x', high, low, ..] => hex_byte(high, low).map(|byte| (byte, 4)),
                _ => None,
            };
            let (byte, len) = escaped.unwrap_or((bytes[i], 1));
            path.push(byte);
            i += len;
        }
        PathBuf::from(std::ffi::OsString::from_vec(path))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(name)
    }
}

/// The byte written as the two upper-case hex digits `high` and `low`.
#[cfg(unix)]
fn hex_byte(high: u8, low: u8) -> Option<u8> {
    let digit = |d: u8| match d {
        b'0'..=b'9' => Some(d - b'0'),
        b'A'..=b'F' => Some(d - b'A' + 10),
        _ => None,
    };
    Some(digit(high)? << 4 | digit(low)?)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    #[test]
    fn names_round_trip_and_utf8_names_without_backslashes_are_unchanged() {
        for (bytes, name) in [
            (&b"logs/a b.ygn"[..], "logs/a b.ygn"),
            ("d\u{e9}j\u{e0}.ygn".as_bytes(), "d\u{e9}j\u{e0}.ygn"),
            (b"x\xff.ygn", "x\\xFF.ygn"),
            (b"a\\b.ygn", "a\\\\b.ygn"),
            (b"a\\xff\xfe", "a\\\\xff\\xFE"),
            (b"\xc3", "\\xC3"),
        ] {
            let path = Path::new(OsStr::from_bytes(bytes));
            assert_eq!(name_of_path(path), name, "{bytes:?}");
            assert_eq!(path_of_name(name), path, "{name}");
        }
        // Backslashes that are no escape (names written before escapes) stand for themselves.
        assert_eq!(path_of_name("a\\b\\x4"), Path::new("a\\b\\x4"));
        assert_eq!(path_of_name("a\\xff"), Path::new("a\\xff"));
    }
}
