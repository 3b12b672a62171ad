//! A ballot table in a link (`#ballots=…`): the explorer's rows as typed, so
//! that a teacher can hand a class the table of an example — a ballot that
//! breaks B3, two quorums that share no priest — and each reader opens the
//! same table in the Ballots tab.
//!
//! A row is four fields separated by `.`: the number as typed, the decree,
//! the quorum and the voters. The number and the decree are percent-encoded
//! UTF-8 (every byte but `A–Z a–z 0–9 - _`), so a `.`, a `~`, a `&` or a `#`
//! typed in a field cannot end it; the quorum and the voters are subsets of
//! the roster, written as a number whose bit *i* is the roster's *i*-th
//! priest (Α = 1, Β = 2, Γ = 4 …). Rows are separated by `~`.
//!
//! `2.%CE%B1.15.8~5.%CE%B2.23.4` is ballots 2 (α, quorum ΑΒΓΔ, Δ voted) and
//! 5 (β, quorum ΑΒΓΕ, Γ voted).

/// A row as the explorer holds it: the number as typed (it may not be a
/// number yet), the decree, and the quorum and voters as sets of the roster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkRow {
    pub number: String,
    pub decree: String,
    pub quorum: u32,
    pub voters: u32,
}

/// At most this many rows in a link (Figure 1 has five).
pub const MAX_ROWS: usize = 100;
/// At most this many characters in a typed number or decree.
pub const MAX_FIELD: usize = 40;

/// Why a link's table cannot be read (rows count from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// `ballots=` and nothing after it.
    Empty,
    /// More than [`MAX_ROWS`] rows.
    TooManyRows(usize),
    /// A row without its four fields.
    Fields { row: usize, found: usize },
    /// A number or decree that is not percent-encoded UTF-8, or longer
    /// than [`MAX_FIELD`].
    Text { row: usize },
    /// A quorum (`voters` false) or a set of voters that is not a subset
    /// of the roster's `of` priests.
    Set {
        row: usize,
        voters: bool,
        typed: String,
        of: usize,
    },
}

/// The link's text after `ballots=`.
pub fn encode(rows: &[LinkRow]) -> String {
    rows.iter()
        .map(|r| {
            format!(
                "{}.{}.{}.{}",
                escape(&r.number),
                escape(&r.decree),
                r.quorum,
                r.voters
            )
        })
        .collect::<Vec<_>>()
        .join("~")
}

/// Read a link's text after `ballots=`, for a roster of `roster` priests.
pub fn decode(text: &str, roster: usize) -> Result<Vec<LinkRow>, LinkError> {
    if text.is_empty() {
        return Err(LinkError::Empty);
    }
    let rows: Vec<&str> = text.split('~').collect();
    if rows.len() > MAX_ROWS {
        return Err(LinkError::TooManyRows(rows.len()));
    }
    let all = (1u32 << roster.min(31)) - 1;
    rows.iter()
        .enumerate()
        .map(|(i, r)| {
            let row = i + 1;
            let f: Vec<&str> = r.split('.').collect();
            if f.len() != 4 {
                return Err(LinkError::Fields {
                    row,
                    found: f.len(),
                });
            }
            let text = |s: &str| {
                unescape(s)
                    .filter(|t| t.chars().count() <= MAX_FIELD)
                    .ok_or(LinkError::Text { row })
            };
            let set = |s: &str, voters: bool| {
                let bad = || LinkError::Set {
                    row,
                    voters,
                    typed: s.chars().take(MAX_FIELD).collect(),
                    of: roster,
                };
                // Digits only: `+1` or ` 1` is not how a link writes a set.
                if s.is_empty() || s.len() > 10 || !s.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(bad());
                }
                s.parse::<u32>()
                    .ok()
                    .filter(|m| m & !all == 0)
                    .ok_or_else(bad)
            };
            Ok(LinkRow {
                number: text(f[0])?,
                decree: text(f[1])?,
                quorum: set(f[2], false)?,
                voters: set(f[3], true)?,
            })
        })
        .collect()
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' {
            out.push(b as char);
        } else {
            out.push('%');
            out.push(char::from(b"0123456789ABCDEF"[(b >> 4) as usize]));
            out.push(char::from(b"0123456789ABCDEF"[(b & 15) as usize]));
        }
    }
    out
}

fn unescape(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = |c: u8| (c as char).to_digit(16);
            let hi = hex(*b.get(i + 1)?)?;
            let lo = hex(*b.get(i + 2)?)?;
            out.push((hi * 16 + lo) as u8);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(number: &str, decree: &str, quorum: u32, voters: u32) -> LinkRow {
        LinkRow {
            number: number.into(),
            decree: decree.into(),
            quorum,
            voters,
        }
    }

    #[test]
    fn a_table_goes_round_whatever_was_typed() {
        let rows = vec![
            row("2", "α", 15, 8),
            row("5", "β", 23, 4),
            row("two", "a.b~c&d#e%f g", 0, 0),
            row("", "", 31, 31),
            row("-7", "法令", 1, 16),
        ];
        let text = encode(&rows);
        assert!(
            text.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_.~%".contains(&b)),
            "{text}"
        );
        assert_eq!(decode(&text, 5), Ok(rows));
        assert_eq!(
            encode(&[row("2", "α", 15, 8), row("5", "β", 23, 4)]),
            "2.%CE%B1.15.8~5.%CE%B2.23.4"
        );
    }

    #[test]
    fn a_damaged_table_says_which_row_and_what() {
        assert_eq!(decode("", 5), Err(LinkError::Empty));
        assert_eq!(
            decode("2.a.1.1~5.b.1", 5),
            Err(LinkError::Fields { row: 2, found: 3 })
        );
        assert_eq!(
            decode("2.a.1.1.9", 5),
            Err(LinkError::Fields { row: 1, found: 5 })
        );
        assert_eq!(decode("2.%CE.1.1", 5), Err(LinkError::Text { row: 1 }));
        assert_eq!(decode("2.%G1.1.1", 5), Err(LinkError::Text { row: 1 }));
        assert_eq!(decode("2.a%.1.1", 5), Err(LinkError::Text { row: 1 }));
        assert_eq!(
            decode(&format!("2.{}.1.1", "a".repeat(MAX_FIELD + 1)), 5),
            Err(LinkError::Text { row: 1 })
        );
        for (bad, voters) in [("2.a.32.1", false), ("2.a.1.x", true), ("2.a..1", false)] {
            let typed = bad.split('.').nth(if voters { 3 } else { 2 }).unwrap();
            assert_eq!(
                decode(bad, 5),
                Err(LinkError::Set {
                    row: 1,
                    voters,
                    typed: typed.into(),
                    of: 5
                }),
                "{bad}"
            );
        }
        assert_eq!(
            decode("2.a.+1.1", 5),
            Err(LinkError::Set {
                row: 1,
                voters: false,
                typed: "+1".into(),
                of: 5
            })
        );
        let many = vec!["1.a.1.1"; MAX_ROWS + 1].join("~");
        assert_eq!(decode(&many, 5), Err(LinkError::TooManyRows(MAX_ROWS + 1)));
        assert_eq!(
            decode(&vec!["1.a.1.1"; MAX_ROWS].join("~"), 5).map(|r| r.len()),
            Ok(MAX_ROWS)
        );
    }
}
