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
    let lower = typed.to_lowercase();
    if let Some(i) = names.iter().position(|n| n.to_lowercase() == lower) {
        return Some(id(i));
    }
    let greek = SPELLED
        .iter()
        .position(|(word, letter)| *word == lower || *letter == lower)
        .map(|k| GREEK[k])?;
    names.iter().position(|n| n == greek).map(id)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::NodeId;

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
