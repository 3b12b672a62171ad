//! Node names. Legislators of Paxos are named with Greek capitals, as in
//! Lamport's paper; users may type them as Latin letters or spelled out.

/// Names of the first nine legislators.
pub const GREEK: [&str; 9] = ["Α", "Β", "Γ", "Δ", "Ε", "Ζ", "Η", "Θ", "Ι"];
/// How each can be typed on a Latin keyboard.
const SPELLED: [(&str, &str); 9] = [
    ("alpha", "a"),
    ("beta", "b"),
    ("gamma", "g"),
    ("delta", "d"),
    ("epsilon", "e"),
    ("zeta", "z"),
    ("eta", "h"),
    ("theta", "th"),
    ("iota", "i"),
];

/// Lower-case Greek decree names (α, β, γ …), as in Lamport's figure.
pub const DECREES: [&str; 9] = ["α", "β", "γ", "δ", "ε", "ζ", "η", "θ", "ι"];

/// Find a node by name: exactly, then case-insensitively, then by the Latin
/// spelling of a Greek letter.
pub fn resolve(names: &[String], typed: &str) -> Option<crate::sim::NodeId> {
    let typed = typed.trim();
    let id = |i: usize| crate::sim::NodeId(i as u8);
    if let Some(i) = names.iter().position(|n| n == typed) {
        return Some(id(i));
    }
    let lower = fold(typed);
    if let Some(i) = names.iter().position(|n| fold(n) == lower) {
        return Some(id(i));
    }
    let greek = SPELLED
        .iter()
        .position(|(word, letter)| *word == lower || *letter == lower)
        .map(|k| GREEK[k])?;
    names.iter().position(|n| n == greek).map(id)
}

/// A name in lower case, for matching what a user typed: the letters of
/// the Latin (ASCII, Latin-1, Latin Extended-A), modern Greek and Cyrillic
/// alphabets; any other character as it is. (Not `str::to_lowercase`: its
/// tables for every script were 8 KB of the page's first load, for names
/// that are Greek or Latin in every scenario we ship.)
fn fold(s: &str) -> String {
    s.chars().map(fold_char).collect()
}

fn fold_char(c: char) -> char {
    let u = c as u32;
    let lower = match u {
        0x41..=0x5A | 0xC0..=0xD6 | 0xD8..=0xDE => u + 0x20,
        // Latin Extended-A: capital and small alternate; the runs start on
        // an even code point, but for Ĺ … Ň and Ź … Ž (odd). İ (no single
        // small letter), ı, ĸ, ŉ and ſ stay.
        0x100..=0x12F | 0x132..=0x137 | 0x14A..=0x177 if u % 2 == 0 => u + 1,
        0x139..=0x148 | 0x179..=0x17E if u % 2 == 1 => u + 1,
        0x178 => 0xFF,
        // Greek: the capitals, then those with a tonos.
        0x391..=0x3A1 | 0x3A3..=0x3AB => u + 0x20,
        0x386 => 0x3AC,
        0x388..=0x38A => u + 0x25,
        0x38C => 0x3CC,
        0x38E | 0x38F => u + 0x3F,
        // Cyrillic.
        0x410..=0x42F => u + 0x20,
        0x400..=0x40F => u + 0x50,
        _ => u,
    };
    char::from_u32(lower).unwrap_or(c)
}

/// A usable node name: 1–16 characters, no control characters or quotes.
pub fn check_name(name: &str) -> Result<(), &'static str> {
    let count = name.chars().count();
    if count == 0 {
        return Err("it is empty");
    }
    if count > 16 {
        return Err("it is longer than 16 characters");
    }
    if name.trim() != name {
        return Err("it starts or ends with a space");
    }
    if name
        .chars()
        .any(|c| c.is_control() || matches!(c, '"' | '<' | '>' | '&' | '\\'))
    {
        return Err("it contains a control character, a quote, <, >, & or a backslash");
    }
    if name == "net" {
        return Err("\"net\" is reserved for the network");
    }
    Ok(())
}

/// A name in double quotes, written as `{:?}` writes a string for every
/// printable character and every control character (`\n`, `\u{7}` …), a
/// quote and a backslash escaped: an error can show exactly what was typed.
/// (The standard `Debug` also escapes unprintable characters that are not
/// control characters; its tables of them are not worth an error message's
/// while in the page's first load.)
pub struct Quoted<'a>(pub &'a str);

impl std::fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use std::fmt::Write;
        f.write_char('"')?;
        for c in self.0.chars() {
            match c {
                '"' | '\\' => write!(f, "\\{c}")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                '\0' => f.write_str("\\0")?,
                c if c.is_control() => write!(f, "\\u{{{:x}}}", c as u32)?,
                c => f.write_char(c)?,
            }
        }
        f.write_char('"')
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::NodeId;

    #[test]
    fn quoted_writes_what_debug_writes() {
        let mut chars: Vec<char> = (0u32..0x250).filter_map(char::from_u32).collect();
        chars.extend(GREEK.iter().chain(&DECREES).flat_map(|g| g.chars()));
        chars.extend("ΣσςЖжあア漢字Ω".chars());
        for &c in &chars {
            let one = c.to_string();
            if c.is_control() || !format!("{one:?}").contains('\\') || matches!(c, '"' | '\\') {
                assert_eq!(
                    Quoted(&one).to_string(),
                    format!("{one:?}"),
                    "U+{:04X}",
                    c as u32
                );
            }
        }
        let all: String = chars
            .iter()
            .filter(|c| c.is_control() || c.is_alphanumeric())
            .collect();
        assert_eq!(Quoted(&all).to_string(), format!("{all:?}"));
        assert_eq!(Quoted("a\"b\\c\u{1b}").to_string(), r#""a\"b\\c\u{1b}""#);
    }

    #[test]
    fn folds_latin_greek_and_cyrillic_as_unicode_does() {
        // Every letter of those alphabets folds to what `to_lowercase` gives
        // it alone; every other character stays as it is.
        let mut folded = 0;
        for c in (0..0x3000).filter_map(char::from_u32) {
            let mut l = c.to_lowercase();
            let unicode = (l.len() == 1).then(|| l.next().unwrap());
            let covered =
                matches!(c as u32, 0..=0x17F | 0x386..=0x3CE | 0x400..=0x45F) && !matches!(c, 'İ');
            if covered {
                assert_eq!(Some(fold_char(c)), unicode, "{c:?} U+{:04X}", c as u32);
                folded += (fold_char(c) != c) as usize;
            } else {
                assert_eq!(fold_char(c), c, "{c:?} U+{:04X}", c as u32);
            }
        }
        assert!(folded >= 190, "{folded} letters folded");
        assert_eq!(fold("ΑΛΦΑ Ölmaster Ŀ ПРИВЕТ"), "αλφα ölmaster ŀ привет");
    }

    #[test]
    fn resolves_greek_in_latin() {
        let names: Vec<String> = GREEK[..5].iter().map(|s| s.to_string()).collect();
        assert_eq!(resolve(&names, "Γ"), Some(NodeId(2)));
        assert_eq!(resolve(&names, "gamma"), Some(NodeId(2)));
        assert_eq!(resolve(&names, "G"), Some(NodeId(2)));
        assert_eq!(resolve(&names, "E"), Some(NodeId(4)));
        assert_eq!(resolve(&names, "zeta"), None);
        assert_eq!(resolve(&names, "nobody"), None);
    }

    #[test]
    fn names_are_checked() {
        assert!(check_name("W1").is_ok());
        assert!(check_name("").is_err());
        assert!(check_name("<script>").is_err());
        assert!(check_name(" x").is_err());
    }
}
