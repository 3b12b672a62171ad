//! The request, read by hand: a flat JSON object of small integers and an
//! optional string, as the page writes it (`serde_json::to_string` of
//! `Request`).
//!
//! Why not serde_json's reader: the worker's module needs no other JSON
//! reader, and serde_json's (with its float parser and tables, which a
//! number anywhere in a document brings) was about a fifth of that module.
//! What the page sends is fixed by `Request`'s `Serialize`; anything else
//! is refused with a reason.

use super::Request;

/// `text` as a request, or what is wrong with it.
pub fn read(text: &str) -> Result<Request, String> {
    let mut r = Reader {
        b: text.as_bytes(),
        i: 0,
    };
    let (mut acceptors, mut proposers, mut ballots, mut crashes, mut mutation) =
        (None, None, None, None, None);
    r.expect(b'{')?;
    if !r.eat(b'}') {
        loop {
            let key = r.string()?;
            r.expect(b':')?;
            match key {
                "acceptors" => acceptors = Some(r.number()?),
                "proposers" => proposers = Some(r.number()?),
                "ballots" => ballots = Some(r.number()?),
                "crashes" => crashes = Some(r.number()?),
                "mutation" => {
                    mutation = Some(if r.word("null") {
                        None
                    } else {
                        Some(r.string()?.to_string())
                    })
                }
                other => return Err(format!("unknown field `{other}`")),
            }
            if r.eat(b'}') {
                break;
            }
            r.expect(b',')?;
        }
    }
    r.space();
    if r.i != r.b.len() {
        return Err(format!("something after the object at {}", r.i));
    }
    let field = |v: Option<u64>, name: &str| v.ok_or_else(|| format!("missing field `{name}`"));
    let small = |v: u64, name: &str, max: u64| {
        if v <= max {
            Ok(v)
        } else {
            Err(format!("`{name}` is {v}, more than {max}"))
        }
    };
    Ok(Request {
        acceptors: small(field(acceptors, "acceptors")?, "acceptors", u32::MAX.into())? as usize,
        proposers: small(field(proposers, "proposers")?, "proposers", u32::MAX.into())? as usize,
        ballots: small(field(ballots, "ballots")?, "ballots", u32::MAX.into())? as u32,
        crashes: small(field(crashes, "crashes")?, "crashes", u8::MAX.into())? as u8,
        mutation: mutation.ok_or("missing field `mutation`")?,
    })
}

struct Reader<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Reader<'a> {
    fn space(&mut self) {
        while self.b.get(self.i).is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    /// Takes `c` (after any space) if it comes next.
    fn eat(&mut self, c: u8) -> bool {
        self.space();
        let yes = self.b.get(self.i) == Some(&c);
        if yes {
            self.i += 1;
        }
        yes
    }

    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(format!("expected `{}` at {}", c as char, self.i))
        }
    }

    fn word(&mut self, w: &str) -> bool {
        self.space();
        let yes = self.b[self.i..].starts_with(w.as_bytes());
        if yes {
            self.i += w.len();
        }
        yes
    }

    /// A whole number of at most 9 digits.
    fn number(&mut self) -> Result<u64, String> {
        self.space();
        let start = self.i;
        while self.b.get(self.i).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
        }
        let digits = &self.b[start..self.i];
        if digits.is_empty() || digits.len() > 9 {
            return Err(format!("expected a whole number at {start}"));
        }
        Ok(digits.iter().fold(0, |n, c| n * 10 + u64::from(c - b'0')))
    }

    /// A string without escapes (names and ids only).
    fn string(&mut self) -> Result<&'a str, String> {
        self.expect(b'"')?;
        let start = self.i;
        while let Some(&c) = self.b.get(self.i) {
            match c {
                b'"' => {
                    let s = std::str::from_utf8(&self.b[start..self.i])
                        .map_err(|_| format!("not UTF-8 at {start}"))?;
                    self.i += 1;
                    return Ok(s);
                }
                b'\\' => return Err(format!("an escape in a string at {}", self.i)),
                _ => self.i += 1,
            }
        }
        Err(format!("a string without its end at {start}"))
    }
}

#[cfg(test)]
mod tests {
    use super::{read, Request};

    fn request(mutation: Option<&str>) -> Request {
        Request {
            acceptors: 3,
            proposers: 2,
            ballots: 4,
            crashes: 1,
            mutation: mutation.map(str::to_string),
        }
    }

    #[test]
    fn reads_what_the_page_writes() {
        for r in [
            request(None),
            request(Some("skip-b3")),
            request(Some("accept-lower-ballot")),
        ] {
            let text = serde_json::to_string(&r).unwrap();
            assert_eq!(read(&text), Ok(r.clone()), "{text}");
            let pretty = serde_json::to_string_pretty(&r).unwrap();
            assert_eq!(read(&pretty), Ok(r), "{pretty}");
        }
        let reordered = r#"{"mutation":null,"crashes":0,"ballots":2,"proposers":2,"acceptors":3}"#;
        assert_eq!(read(reordered).unwrap().acceptors, 3);
    }

    #[test]
    fn refuses_what_is_not_a_request_and_says_why() {
        for (text, why) in [
            ("", "expected `{`"),
            ("{", "expected `\"`"),
            ("[]", "expected `{`"),
            (r#"{"acceptors":3}"#, "missing field `proposers`"),
            (
                r#"{"acceptors":3,"proposers":2,"ballots":2,"crashes":0}"#,
                "missing field `mutation`",
            ),
            (r#"{"acceptors":-3}"#, "whole number"),
            (r#"{"acceptors":3.5}"#, "expected `,`"),
            (r#"{"acceptors":9999999999}"#, "whole number"),
            (
                r#"{"acceptors":1,"proposers":2,"ballots":2,"crashes":300,"mutation":null}"#,
                "more than 255",
            ),
            (r#"{"acceptors":1,"extra":2}"#, "unknown field `extra`"),
            (r#"{"mutation":"a\"b"}"#, "an escape"),
            (r#"{"mutation":"ab"#, "without its end"),
            (
                r#"{"acceptors":1,"proposers":2,"ballots":2,"crashes":0,"mutation":null} x"#,
                "after the object",
            ),
        ] {
            let got = read(text).expect_err(text);
            assert!(got.contains(why), "{text}: {got}");
        }
    }
}
