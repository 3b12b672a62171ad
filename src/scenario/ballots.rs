//! The ballot explorer: Lamport's Figure 1 as editable data, and a checker
//! that evaluates conditions B1–B3 on whatever set of ballots the user makes.
//!
//! In "The Part-Time Parliament" (§2.1) a ballot *B* has a decree *B.dec*, a
//! non-empty quorum *B.qrm*, a set of voters *B.vot* and a number *B.bal*; it
//! is **successful** iff *B.qrm ⊆ B.vot*. Numbers order ballots, not time: a
//! "later" ballot is a higher-numbered one. For a set 𝓑 of ballots:
//!
//! - **B1**: distinct ballots have distinct numbers;
//! - **B2**: any two quorums share a priest;
//! - **B3**: let *MaxVote(b, Q, 𝓑)* be the highest-numbered vote cast by a
//!   member of *Q* in a ballot of 𝓑 numbered below *b* (null if none). If
//!   *MaxVote(B.bal, B.qrm, 𝓑)* is not null, *B.dec* must equal its decree.
//!   A ballot whose MaxVote is null is **free**; otherwise it is **forced**.
//!
//! B1–B3 give the **Lemma** (a successful ballot forces every later ballot to
//! its decree) and **Theorem 1** (any two successful ballots agree). [`check`]
//! reports every condition separately, and the two conclusions separately too,
//! so that an edit which breaks consistency shows *which* condition let it.
//!
//! Nothing here produces sentences: the report is data (rows, priests,
//! decrees) that the UI words in Japanese or English. Ballots are referred to
//! by their *row* — their index in the input — because a user may edit two
//! numbers to be equal, and then a number no longer names one ballot.
//!
//! **Voters outside the quorum.** Lamport defines *B.vot* as any set of
//! priests, not a subset of *B.qrm*: his footnote 7 says only quorum members
//! actually voted, but the proof allows any priest to vote in any ballot, and
//! Figure 1 draws voters as boxed quorum members only because that is what
//! the protocol produces. So an outside voter is *not* an input error here:
//! the vote counts in *Votes(𝓑)* — and hence in MaxVote of later ballots —
//! exactly as the formal definitions say, and the Lemma and Theorem 1 still
//! hold. It is reported as a [`Remark`], because the protocol never does it.

use super::names::{self, DECREES, GREEK};
use crate::sorted::{VecMap, VecSet};
use serde::{Deserialize, Serialize};

/// A priest of the Synod (a legislator), by name.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Priest(pub String);

impl Priest {
    pub fn new(name: impl Into<String>) -> Self {
        Priest(name.into())
    }
}

/// A decree, by name (α, β … in Figure 1; anything non-empty when edited).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Decree(pub String);

impl Decree {
    pub fn new(name: impl Into<String>) -> Self {
        Decree(name.into())
    }
}

/// One ballot, as a row of Figure 1: *B.bal*, *B.dec*, *B.qrm*, *B.vot*.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BallotRow {
    /// *B.bal*. Any integer: the user may type anything, including a clash.
    pub number: i64,
    pub decree: Decree,
    pub quorum: VecSet<Priest>,
    pub voters: VecSet<Priest>,
    /// The voters are our reconstruction, not Lamport's (Figure 1's ballot
    /// 29: DOMAIN.md marks its voters [U]); the UI must label the row so.
    #[serde(default, skip_serializing_if = "is_false")]
    pub reconstructed: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl BallotRow {
    pub fn new(number: i64, decree: &str, quorum: &[&str], voters: &[&str]) -> Self {
        BallotRow {
            number,
            decree: Decree::new(decree),
            quorum: quorum.iter().map(|p| Priest::new(*p)).collect(),
            voters: voters.iter().map(|p| Priest::new(*p)).collect(),
            reconstructed: false,
        }
    }

    /// *B.qrm ⊆ B.vot*. An empty quorum (an input error) is not counted as
    /// successful, although the subset test would pass vacuously: a ballot
    /// nobody had to vote in should not light up as passed.
    pub fn successful(&self) -> bool {
        !self.quorum.is_empty() && self.quorum.is_subset(&self.voters)
    }
}

/// The five priests of Figure 1: Α, Β, Γ, Δ, Ε (Greek capitals, as the rest
/// of the app names legislators; users may type them as A, B, G, D, E).
pub fn figure1_priests() -> Vec<Priest> {
    GREEK[..5].iter().map(|n| Priest::new(*n)).collect()
}

/// Lamport's Figure 1 as DOMAIN.md gives it. Numbers, decrees and quorums
/// are the figure's; voters are derived from his B3 walkthrough, except
/// ballot 29's, which no source shows: we draw Γ alone (so only ballot 27 is
/// successful, as the paper says) and flag the row as reconstructed.
pub fn figure1() -> Vec<BallotRow> {
    let [a, b, g, d, e] = [GREEK[0], GREEK[1], GREEK[2], GREEK[3], GREEK[4]];
    let (alpha, beta) = (DECREES[0], DECREES[1]);
    let mut last = BallotRow::new(29, beta, &[b, g, d], &[g]);
    last.reconstructed = true;
    vec![
        BallotRow::new(2, alpha, &[a, b, g, d], &[d]),
        BallotRow::new(5, beta, &[a, b, g, e], &[g]),
        BallotRow::new(14, alpha, &[b, d, e], &[b, e]),
        BallotRow::new(27, beta, &[a, g, d], &[a, g, d]),
        last,
    ]
}

/// Which set of a row a name was found in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    Quorum,
    Voters,
}

/// Input the definitions do not allow. The checker still evaluates B1–B3
/// with the row as typed, so the rest of the table keeps its colours.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum InputError {
    /// *B.qrm* must be non-empty. (An empty quorum also breaks B2 for the
    /// ballot paired with itself, and MaxVote is only defined for non-empty
    /// sets; we treat its MaxVote as null.)
    EmptyQuorum { row: usize },
    /// A decree needs a name (blank after trimming spaces).
    EmptyDecree { row: usize },
    /// A name that resolves to no priest on the roster. It is kept as typed,
    /// as if it were one more priest, so the analysis can go on.
    UnknownPriest {
        row: usize,
        field: Field,
        name: String,
    },
}

/// Allowed, but worth pointing out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Remark {
    /// A voter who is not in the quorum (allowed by the maths, never done by
    /// the protocol; see the module notes). The vote counts in MaxVote.
    VoterOutsideQuorum { row: usize, priest: Priest },
}

/// A B1 violation: these rows share a number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DuplicateNumber {
    pub number: i64,
    /// At least two rows, ascending.
    pub rows: Vec<usize>,
}

/// A B2 violation: two ballots whose quorums share no priest (`first < second`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DisjointPair {
    pub first: usize,
    pub second: usize,
}

/// *MaxVote(b, Q, 𝓑)* when it is not null: the vote that forces a ballot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MaxVote {
    /// The earlier ballot the vote was cast in.
    pub row: usize,
    pub number: i64,
    pub decree: Decree,
    /// The members of *Q* who cast that vote (for Figure 1's ballot 29, both
    /// Γ and Δ voted in ballot 27).
    pub voters: VecSet<Priest>,
    /// Only possible when B1 fails: another row with the same number also
    /// holds a vote by a member of *Q*, for a different decree. Lamport left
    /// the order of equal-numbered votes undefined, so MaxVote's decree is
    /// then undefined too; we report the first such row in input order.
    pub ambiguous: bool,
}

/// Condition B3 for one ballot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum B3 {
    /// No quorum member voted in a lower-numbered ballot: any decree will do.
    Free,
    /// The decree must be `by.decree`; `satisfied` says whether it is.
    Forced { by: MaxVote, satisfied: bool },
}

/// What the checker says about one row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RowReport {
    pub row: usize,
    pub number: i64,
    pub successful: bool,
    pub b3: B3,
}

impl RowReport {
    pub fn b3_holds(&self) -> bool {
        !matches!(
            self.b3,
            B3::Forced {
                satisfied: false,
                ..
            }
        )
    }
}

/// The first (lowest-numbered) successful ballot and the ballots after it.
/// By the Lemma, every later ballot is pinned to `decree` — if B1–B3 hold.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Pin {
    pub row: usize,
    pub number: i64,
    pub decree: Decree,
    /// Rows numbered above `number`, in number order.
    pub later: Vec<usize>,
}

/// A successful ballot and a later one with a different decree: the
/// conclusion of the Lemma failing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LemmaBreak {
    pub successful: usize,
    pub later: usize,
}

/// The conclusions: the Lemma and Theorem 1, checked directly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Consistency {
    /// Successful rows, in number order (ties by row).
    pub successful: Vec<usize>,
    pub pin: Option<Pin>,
    pub lemma_breaks: Vec<LemmaBreak>,
    /// Pairs of successful rows with different decrees (Theorem 1 failing),
    /// each in number order.
    pub disagreements: Vec<(usize, usize)>,
}

impl Consistency {
    /// Any two successful ballots have the same decree.
    pub fn theorem1_holds(&self) -> bool {
        self.disagreements.is_empty()
    }

    /// The decree every successful ballot has, if any succeeded and they agree.
    pub fn agreed_decree(&self) -> Option<&Decree> {
        self.pin
            .as_ref()
            .filter(|_| self.theorem1_holds())
            .map(|p| &p.decree)
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Condition {
    B1,
    B2,
    B3,
}

/// Everything [`check`] found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    pub errors: Vec<InputError>,
    pub remarks: Vec<Remark>,
    /// One per input row, in input order.
    pub rows: Vec<RowReport>,
    pub b1: Vec<DuplicateNumber>,
    /// Pairs of distinct rows only; an empty quorum is in `errors`.
    pub b2: Vec<DisjointPair>,
    pub consistency: Consistency,
}

impl Report {
    pub fn input_ok(&self) -> bool {
        self.errors.is_empty()
    }

    /// The conditions that fail, in order B1, B2, B3.
    pub fn failed(&self) -> Vec<Condition> {
        let empty_quorum = self
            .errors
            .iter()
            .any(|e| matches!(e, InputError::EmptyQuorum { .. }));
        let mut out = Vec::new();
        if !self.b1.is_empty() {
            out.push(Condition::B1);
        }
        if !self.b2.is_empty() || empty_quorum {
            out.push(Condition::B2);
        }
        if self.rows.iter().any(|r| !r.b3_holds()) {
            out.push(Condition::B3);
        }
        out
    }

    /// B1, B2 and B3 all hold.
    pub fn holds(&self) -> bool {
        self.failed().is_empty()
    }
}

/// Check ballots whose priests are Figure 1's five.
pub fn check(rows: &[BallotRow]) -> Report {
    check_with(&figure1_priests(), rows)
}

/// Check ballots against a roster of priests. Names are resolved as users
/// type them ("G", "gamma" and "Γ" are the same priest) and reported under
/// the roster's spelling; decrees are compared with surrounding spaces
/// trimmed.
pub fn check_with(roster: &[Priest], rows: &[BallotRow]) -> Report {
    let mut errors = Vec::new();
    let mut remarks = Vec::new();
    let rows: Vec<BallotRow> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| canonical(roster, i, r, &mut errors))
        .collect();
    for (i, r) in rows.iter().enumerate() {
        for p in r.voters.difference(&r.quorum) {
            remarks.push(Remark::VoterOutsideQuorum {
                row: i,
                priest: p.clone(),
            });
        }
    }
    let reports = rows
        .iter()
        .enumerate()
        .map(|(i, r)| RowReport {
            row: i,
            number: r.number,
            successful: r.successful(),
            b3: match max_vote(&rows, r.number, &r.quorum) {
                None => B3::Free,
                Some(by) => B3::Forced {
                    satisfied: by.decree == r.decree,
                    by,
                },
            },
        })
        .collect();
    Report {
        errors,
        remarks,
        rows: reports,
        b1: duplicate_numbers(&rows),
        b2: disjoint_quorums(&rows),
        consistency: consistency(&rows),
    }
}

/// The row with names resolved against the roster and the decree trimmed,
/// recording what is wrong with it on the way.
fn canonical(
    roster: &[Priest],
    row: usize,
    r: &BallotRow,
    errors: &mut Vec<InputError>,
) -> BallotRow {
    let names: Vec<String> = roster.iter().map(|p| p.0.clone()).collect();
    let mut resolve = |field: Field, set: &VecSet<Priest>| -> VecSet<Priest> {
        set.iter()
            .map(|p| match names::resolve(&names, &p.0) {
                Some(id) => roster[id.index()].clone(),
                None => {
                    errors.push(InputError::UnknownPriest {
                        row,
                        field,
                        name: p.0.clone(),
                    });
                    p.clone()
                }
            })
            .collect()
    };
    let quorum = resolve(Field::Quorum, &r.quorum);
    let voters = resolve(Field::Voters, &r.voters);
    let decree = Decree::new(r.decree.0.trim());
    if decree.0.is_empty() {
        errors.push(InputError::EmptyDecree { row });
    }
    if quorum.is_empty() {
        errors.push(InputError::EmptyQuorum { row });
    }
    BallotRow {
        number: r.number,
        decree,
        quorum,
        voters,
        reconstructed: r.reconstructed,
    }
}

/// *MaxVote(b, Q, 𝓑)*, or `None` for the null vote. Every voter of every
/// ballot casts a vote (*Votes(𝓑)*), whether or not they are in its quorum.
fn max_vote(rows: &[BallotRow], b: i64, q: &VecSet<Priest>) -> Option<MaxVote> {
    let cast_by_q = |r: &BallotRow| r.number < b && !r.voters.is_disjoint(q);
    let top = rows
        .iter()
        .filter(|r| cast_by_q(r))
        .map(|r| r.number)
        .max()?;
    let tied: Vec<usize> = (0..rows.len())
        .filter(|&i| cast_by_q(&rows[i]) && rows[i].number == top)
        .collect();
    let first = &rows[tied[0]];
    Some(MaxVote {
        row: tied[0],
        number: top,
        decree: first.decree.clone(),
        voters: first.voters.intersection(q).cloned().collect(),
        ambiguous: tied.iter().any(|&i| rows[i].decree != first.decree),
    })
}

fn duplicate_numbers(rows: &[BallotRow]) -> Vec<DuplicateNumber> {
    let mut by_number: VecMap<i64, Vec<usize>> = VecMap::new();
    for (i, r) in rows.iter().enumerate() {
        by_number.or_default(r.number).push(i);
    }
    by_number
        .into_iter()
        .filter(|(_, rows)| rows.len() > 1)
        .map(|(number, rows)| DuplicateNumber { number, rows })
        .collect()
}

fn disjoint_quorums(rows: &[BallotRow]) -> Vec<DisjointPair> {
    let mut out = Vec::new();
    for i in 0..rows.len() {
        for j in i + 1..rows.len() {
            if rows[i].quorum.is_disjoint(&rows[j].quorum) {
                out.push(DisjointPair {
                    first: i,
                    second: j,
                });
            }
        }
    }
    out
}

/// The Lemma and Theorem 1, evaluated on the ballots as they are — not
/// derived from B1–B3 — so a broken condition shows its consequence.
fn consistency(rows: &[BallotRow]) -> Consistency {
    let by_number = |mut v: Vec<usize>| {
        // i64 to u64 keeping the order: the sign bit flipped.
        crate::sorted::sort_by_key(&mut v, |&i| ((rows[i].number as u64) ^ (1 << 63), i as u64));
        v
    };
    let successful = by_number((0..rows.len()).filter(|&i| rows[i].successful()).collect());
    let pin = successful.first().map(|&s| Pin {
        row: s,
        number: rows[s].number,
        decree: rows[s].decree.clone(),
        later: by_number(
            (0..rows.len())
                .filter(|&j| rows[j].number > rows[s].number)
                .collect(),
        ),
    });
    let mut lemma_breaks = Vec::new();
    for &s in &successful {
        for later in by_number((0..rows.len()).collect()) {
            if rows[later].number > rows[s].number && rows[later].decree != rows[s].decree {
                lemma_breaks.push(LemmaBreak {
                    successful: s,
                    later,
                });
            }
        }
    }
    let mut disagreements = Vec::new();
    for (k, &a) in successful.iter().enumerate() {
        for &b in &successful[k + 1..] {
            if rows[a].decree != rows[b].decree {
                disagreements.push((a, b));
            }
        }
    }
    Consistency {
        successful,
        pin,
        lemma_breaks,
        disagreements,
    }
}

pub mod link;
#[cfg(test)]
mod tests;
