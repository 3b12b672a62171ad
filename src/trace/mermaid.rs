//! Export a time window of a run as a Mermaid `sequenceDiagram`, to paste
//! into a Markdown file, an issue or a slide.
//!
//! A sequence diagram has no time axis, only an order, so each messenger is
//! drawn once, at the moment its fate is known: `A->>B` when it arrives,
//! `A-xB` when it is lost, cut off by a partition or reaches a crashed
//! legislator. Drawing at arrival keeps cause before effect: a reply is sent
//! after its request arrived, so it also arrives (and is drawn) after it.
//! Facts worth reading — learned, chosen, free or forced decrees, lease
//! grants and expiries, faults and violations — become `Note over` lines.
//!
//! Participants get plain ids (`n0`, `n1` …) with the node name as alias, so
//! no name can collide with Mermaid's keywords or arrow syntax. All text goes
//! through [`text`], which turns every character that could end or bend a
//! statement into a Mermaid entity code (`#59;` for `;` and so on).

use super::label::{self, NoteClass};
use super::{DropReason, EventKind, TraceEvent};
use crate::sim::NodeId;
use crate::sorted::VecSet;

/// More statements than this and the diagram is unreadable (and slow to lay
/// out); the rest is summarised in a last note.
pub const MAX_STATEMENTS: usize = 1_500;

/// Make `s` safe as Mermaid text (a message label, a note, an alias).
///
/// Mermaid's lexer ends a text at `#`, `;` or a newline, treats `%%` as a
/// comment and `:` as a separator in places, and its renderer reads `<`, `>`
/// and `&` as HTML. Each becomes a decimal entity code `#NN;`, which Mermaid
/// decodes back to the character when it draws. Other control characters and
/// line separators become spaces. A leading space keeps a text that starts
/// with "wrap" from being read as the wrap directive.
pub fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '#' | ';' | ':' | '%' | '<' | '>' | '&' => {
                out.push_str(&format!("#{};", c as u32));
            }
            '\n' | '\r' | '\t' | '\u{2028}' | '\u{2029}' | '\u{85}' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    let trimmed = out.trim();
    if trimmed.is_empty() {
        "-".into()
    } else {
        trimmed.to_string()
    }
}

fn id(n: NodeId) -> String {
    format!("n{}", n.0)
}

/// The diagram for the events with `from_us <= t <= to_us`.
pub fn export(names: &[String], events: &[TraceEvent], from_us: u64, to_us: u64) -> String {
    let mut out = String::from("sequenceDiagram\n");
    for (i, name) in names.iter().enumerate() {
        out.push_str(&format!("    participant n{i} as {}\n", text(name)));
    }
    if names.is_empty() {
        return out;
    }
    let everyone = if names.len() == 1 {
        "n0".to_string()
    } else {
        format!("n0,n{}", names.len() - 1)
    };
    let note_over = |n: NodeId| {
        if n.index() < names.len() {
            id(n)
        } else {
            everyone.clone()
        }
    };
    // Copies made by the network, to mark their arrival as a duplicate. The
    // copy is announced before the window may start, so look from the start.
    let mut copies = VecSet::new();
    let mut statements: Vec<String> = Vec::new();
    let mut left_out = 0usize;
    for e in events {
        if let EventKind::Duplicate { id, .. } = &e.kind {
            copies.insert(id.0);
        }
        if e.t.0 < from_us || e.t.0 > to_us {
            continue;
        }
        let line = match &e.kind {
            EventKind::Deliver { id: m, from, msg } => {
                let dup = if copies.contains(&m.0) {
                    " (duplicate)"
                } else {
                    ""
                };
                Some(format!(
                    "{}->>{}: {}{dup}",
                    id(*from),
                    id(e.node),
                    text(&label::msg(names, msg))
                ))
            }
            EventKind::Drop {
                from,
                to,
                msg,
                reason,
                ..
            } => Some(format!(
                "{}-x{}: {} ({})",
                id(*from),
                id(*to),
                text(&label::msg(names, msg)),
                match reason {
                    DropReason::Loss => "lost",
                    DropReason::Partition => "partition",
                    DropReason::Down => "receiver down",
                }
            )),
            EventKind::Fault { fault } => Some(format!(
                "Note over {}: {}",
                note_over(e.node),
                text(&label::fault(&label::named_fault(names, fault)))
            )),
            EventKind::Command { command } => Some(format!(
                "Note over {}: {}",
                note_over(e.node),
                text(&label::command(&label::named_command(names, command)))
            )),
            EventKind::Resume => Some(format!("Note over {}: resume", note_over(e.node))),
            EventKind::Note(n) => label::note(names, n).map(|(class, t)| {
                let t = if class == NoteClass::Violation {
                    format!("⚠ {t}")
                } else {
                    t
                };
                format!("Note over {}: {}", note_over(e.node), text(&t))
            }),
            EventKind::Violation { invariant, detail } => Some(format!(
                "Note over {}: {}",
                note_over(e.node),
                text(&format!("⚠ VIOLATION {invariant}: {detail}"))
            )),
            _ => None,
        };
        if let Some(line) = line {
            if statements.len() < MAX_STATEMENTS {
                statements.push(line);
            } else {
                left_out += 1;
            }
        }
    }
    for s in &statements {
        out.push_str("    ");
        out.push_str(s);
        out.push('\n');
    }
    if left_out > 0 {
        out.push_str(&format!(
            "    Note over {everyone}: {}\n",
            text(&format!(
                "{left_out} more left out; choose a shorter time window"
            ))
        ));
    }
    out
}
