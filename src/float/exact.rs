//! A decimal of any length as the nearest double, ties to even — what
//! `str::parse::<f64>` gives — with a few lines of big-integer arithmetic.
//!
//! Why not the standard parser, or serde_json's `float_roundtrip`: both are
//! fast for every input and carry tables of powers for it (core's Eisel–Lemire
//! table, serde_json's `lexical` module: ~15 KB gzip of the page's parts). The
//! page reads a handful of floats per file or share link (a loss rate, a
//! latency's parameters), written by `serde_json` as the shortest text that
//! reads back to the same double — up to 17 digits, so `float::parse`'s fast
//! path does not cover them. Speed does not matter here; being exact does (a
//! replayed scenario must be the same scenario). So: the value is the exact
//! fraction `digits · 10^scale`; scale it by a power of two until the integer
//! quotient has 53 bits, and round on the remainder.

use std::cmp::Ordering;

/// At most this many significant digits are kept. A tie between two doubles
/// has at most 767 significant digits, so a longer input whose dropped
/// digits are not all zero lies strictly between the kept digits and the
/// next number of that length, where no tie can be: replacing the dropped
/// digits by one `1` rounds the same way.
const KEEP: usize = 800;

/// `± digits · 10^scale` as the nearest double. `digits` are ASCII decimal
/// digits (leading and trailing zeros allowed). `None` when the value is too
/// large for a double (it would round to infinity).
pub fn decimal(negative: bool, digits: &[u8], scale: i64) -> Option<f64> {
    let value = magnitude(digits, scale)?;
    Some(if negative { -value } else { value })
}

fn magnitude(digits: &[u8], mut scale: i64) -> Option<f64> {
    let start = digits.iter().position(|&d| d != b'0');
    let Some(start) = start else { return Some(0.0) };
    let end = digits.iter().rposition(|&d| d != b'0')? + 1;
    scale += (digits.len() - end) as i64;
    let mut kept: Vec<u8> = digits[start..end].to_vec();
    if kept.len() > KEEP {
        scale += (kept.len() - KEEP - 1) as i64;
        kept.truncate(KEEP);
        kept.push(b'1');
    }
    // 10^(count+scale-1) ≤ value < 10^(count+scale).
    let top = kept.len() as i64 + scale;
    if top > 310 {
        return None;
    }
    if top < -324 {
        // Below 10^-324, under half the smallest subnormal (4.9·10^-324).
        return Some(0.0);
    }
    let mut num = Big::from_digits(&kept);
    let mut den = Big::one();
    if scale >= 0 {
        num.mul_pow10(scale as u32);
    } else {
        den.mul_pow10((-scale) as u32);
    }
    // q = ⌊num·2^k / den⌋ with 2^52 ≤ q < 2^53, k at most 1074 (below
    // 2^-1022 the doubles are subnormal: their unit is 2^-1074).
    let mut k = (53 - (num.bits() as i64 - den.bits() as i64)).min(1074);
    loop {
        let (q, half) = quotient(&num, &den, k);
        if q >= 1 << 53 {
            k -= 1;
            continue;
        }
        // Round on the remainder: more than half up, exactly half to even.
        let up = match half {
            Ordering::Greater => true,
            Ordering::Equal => q & 1 == 1,
            Ordering::Less => false,
        };
        // value ≈ q · 2^-k; a normal double's q holds its hidden bit, so
        // adding the biased exponent less one carries a round-up to 2^53
        // into the exponent, and a subnormal (k = 1074) is q itself.
        let bits = (((52 - k + 1022) as u64) << 52) + q + u64::from(up);
        return (bits < 0x7FF0_0000_0000_0000).then(|| f64::from_bits(bits));
    }
}

/// `⌊num·2^k / den⌋` (which must fit in 55 bits), and how twice the
/// remainder compares with the divisor (for negative `k` the divisor is
/// `den·2^-k`).
fn quotient(num: &Big, den: &Big, k: i64) -> (u64, Ordering) {
    let (mut a, b) = if k >= 0 {
        (num.shifted(k as u32), den.clone())
    } else {
        (num.clone(), den.shifted((-k) as u32))
    };
    let mut q = 0u64;
    for bit in (0..=54).rev() {
        let d = b.shifted(bit);
        if a.cmp(&d) != Ordering::Less {
            a.sub(&d);
            q |= 1 << bit;
        }
    }
    (q, a.shifted(1).cmp(&b))
}

/// A natural number in base 2^32, least significant limb first, no
/// trailing zero limbs.
#[derive(Clone, Debug)]
struct Big(Vec<u32>);

impl Big {
    fn one() -> Big {
        Big(vec![1])
    }

    fn from_digits(digits: &[u8]) -> Big {
        let mut n = Big(Vec::new());
        for chunk in digits.chunks(9) {
            let v = chunk.iter().fold(0u32, |v, d| v * 10 + u32::from(d - b'0'));
            n.mul_add(10u32.pow(chunk.len() as u32), v);
        }
        n
    }

    fn mul_add(&mut self, m: u32, add: u32) {
        let mut carry = u64::from(add);
        for limb in &mut self.0 {
            let x = u64::from(*limb) * u64::from(m) + carry;
            *limb = x as u32;
            carry = x >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    fn mul_pow10(&mut self, mut n: u32) {
        while n > 0 {
            let step = n.min(9);
            self.mul_add(10u32.pow(step), 0);
            n -= step;
        }
    }

    fn bits(&self) -> u32 {
        match self.0.last() {
            None => 0,
            Some(top) => 32 * self.0.len() as u32 - top.leading_zeros(),
        }
    }

    fn shifted(&self, by: u32) -> Big {
        if self.0.is_empty() {
            return self.clone();
        }
        let (limbs, bits) = ((by / 32) as usize, by % 32);
        let mut out = vec![0u32; limbs];
        let mut carry = 0u32;
        for &limb in &self.0 {
            out.push(if bits == 0 {
                limb
            } else {
                (limb << bits) | carry
            });
            carry = if bits == 0 { 0 } else { limb >> (32 - bits) };
        }
        if carry > 0 {
            out.push(carry);
        }
        Big(out)
    }

    fn cmp(&self, other: &Big) -> Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }

    /// `self -= other`, for `other ≤ self`.
    fn sub(&mut self, other: &Big) {
        let mut borrow = 0i64;
        for (i, limb) in self.0.iter_mut().enumerate() {
            let x = i64::from(*limb) - i64::from(other.0.get(i).copied().unwrap_or(0)) - borrow;
            *limb = x as u32;
            borrow = i64::from(x < 0);
        }
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }
}

#[cfg(test)]
mod tests;
