//! serde_json's pretty layout — two spaces per level, `": "` after a key,
//! `{}` and `[]` when empty — laid over compact JSON text.
//!
//! Why not `serde_json::to_string_pretty`: every type it writes is compiled
//! again for the pretty writer, beside the compact one the page already has
//! for share links and saved work (issue 15: a scenario's whole `Serialize`
//! once more in the export part and in the checker's module). A test checks
//! this against `to_string_pretty`, byte for byte.

/// `compact` (JSON as `serde_json::to_string` writes it) laid out as
/// `serde_json::to_string_pretty` would have written the same value.
pub fn pretty(compact: &str) -> String {
    let b = compact.as_bytes();
    let mut out = Vec::with_capacity(b.len() * 2);
    let mut depth = 0usize;
    let line = |out: &mut Vec<u8>, depth: usize| {
        out.push(b'\n');
        out.extend(std::iter::repeat_n(b' ', 2 * depth));
    };
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'"' => {
                // A string, copied as it is (escaped quotes included).
                let start = i;
                i += 1;
                while let Some(&d) = b.get(i) {
                    i += if d == b'\\' { 2 } else { 1 };
                    if d == b'"' {
                        break;
                    }
                }
                out.extend_from_slice(&b[start..i.min(b.len())]);
                continue;
            }
            b'{' | b'[' if matches!(b.get(i + 1), Some(b'}' | b']')) => {
                out.extend_from_slice(&b[i..i + 2]);
                i += 2;
                continue;
            }
            b'{' | b'[' => {
                out.push(c);
                depth += 1;
                line(&mut out, depth);
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                line(&mut out, depth);
                out.push(c);
            }
            b',' => {
                out.push(c);
                line(&mut out, depth);
            }
            b':' => out.extend_from_slice(b": "),
            _ => out.push(c),
        }
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| compact.to_string())
}

#[cfg(test)]
mod tests {
    use super::pretty;
    use serde_json::json;

    #[test]
    fn lays_out_as_serde_json_pretty() {
        let tricky = json!({
            "empty": {}, "none": [], "nested": [[], [{}], {"a": [1, -2.5, 1e300]}],
            "text": "a \"quoted\" {brace}, [bracket]: colon \\ back\\\\slash \u{1} Α 日本",
            "t": true, "f": false, "n": null, "key: with, marks": "x",
        });
        let compact = serde_json::to_string(&tricky).unwrap();
        assert_eq!(
            pretty(&compact),
            serde_json::to_string_pretty(&tricky).unwrap()
        );
        use crate::scenario::{builtin, commit_spec, lease_spec, multipaxos_spec};
        let names = builtin::PAXOS_NAMES
            .iter()
            .chain(&lease_spec::BUILTIN_NAMES);
        let names = names
            .chain(&multipaxos_spec::BUILTIN_NAMES)
            .chain(&commit_spec::BUILTIN_NAMES);
        for name in names {
            let s = builtin::get(name).unwrap();
            assert_eq!(
                pretty(&s.to_json_compact()),
                serde_json::to_string_pretty(&s).unwrap(),
                "{name}"
            );
        }
    }
}
