//! The time axis of the space-time diagram: round tick values and their
//! labels, kept apart from the lane geometry because it knows nothing of runs.

use super::Tick;

/// Round time ticks (1, 2 or 5 × 10^k µs apart), about one per 90 pixels.
pub(super) fn ticks(from: u64, to: u64, plot_w: f64, x_of: &dyn Fn(u64) -> f64) -> Vec<Tick> {
    let want = (plot_w / 90.0).clamp(1.0, 20.0);
    let span = (to - from) as f64;
    let mut step: u64 = 1;
    'outer: for k in 0..19u32 {
        for m in [1u64, 2, 5] {
            let s = m.saturating_mul(10u64.saturating_pow(k));
            if span / s as f64 <= want {
                step = s;
                break 'outer;
            }
            step = s;
        }
    }
    let mut out = Vec::new();
    let mut t = from.div_ceil(step).saturating_mul(step);
    while t <= to && out.len() <= 40 {
        out.push(Tick {
            t_us: t,
            x: x_of(t),
            label: tick_label(t, step),
        });
        match t.checked_add(step) {
            Some(next) => t = next,
            None => break,
        }
    }
    out
}

/// `1.5 s`, `250 ms`, `40 µs`: the largest unit the instant reaches, with
/// only the decimals it needs.
fn tick_label(t: u64, step: u64) -> String {
    let (unit, div, width) = if t >= 1_000_000 || step >= 1_000_000 {
        ("s", 1_000_000u64, 6usize)
    } else if t >= 1_000 || step >= 1_000 {
        ("ms", 1_000, 3)
    } else {
        ("µs", 1, 0)
    };
    let (whole, frac) = (t / div, t % div);
    if frac == 0 {
        return format!("{whole} {unit}");
    }
    let mut f = format!("{frac:0width$}");
    while f.ends_with('0') {
        f.pop();
    }
    format!("{whole}.{f} {unit}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_use_the_largest_unit_reached() {
        assert_eq!(tick_label(0, 50_000), "0 ms");
        assert_eq!(tick_label(250_000, 50_000), "250 ms");
        assert_eq!(tick_label(1_500_000, 500_000), "1.5 s");
        assert_eq!(tick_label(2_000_000, 1_000_000), "2 s");
        assert_eq!(tick_label(40, 10), "40 µs");
        assert_eq!(tick_label(1_000_250, 50), "1.00025 s");
    }

    #[test]
    fn ticks_are_round_and_inside_the_window() {
        let x = |t: u64| t as f64;
        let t = ticks(1_234, 9_876_543, 900.0, &x);
        assert!(t.len() >= 2 && t.len() <= 21, "{}", t.len());
        assert!(t.iter().all(|k| (1_234..=9_876_543).contains(&k.t_us)));
        let step = t[1].t_us - t[0].t_us;
        assert!([1, 2, 5].iter().any(|m| step % m == 0
            && (step / m)
                .to_string()
                .trim_start_matches('1')
                .chars()
                .all(|c| c == '0')));
        assert!(ticks(0, u64::MAX, 900.0, &x).len() <= 41);
    }
}
