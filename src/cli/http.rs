//! A very small blocking HTTP/1.1 client for etcd's JSON gateway on
//! loopback: one POST per connection, `Connection: close`, plain or chunked
//! answers. That is all the etcd runs need, and it costs no dependency (see
//! docs/design.md for the figures against etcd-client and an HTTP crate).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// `http://host:port` → `host:port`.
pub fn authority(url: &str) -> Result<String, String> {
    let rest = url.strip_prefix("http://").ok_or_else(|| {
        format!("{url:?} is not an http:// URL (etcd's client URL, e.g. http://127.0.0.1:2379)")
    })?;
    let auth = rest.trim_end_matches('/');
    if auth.is_empty() || auth.contains('/') || !auth.contains(':') {
        return Err(format!(
            "{url:?} should be http://HOST:PORT with nothing after it"
        ));
    }
    Ok(auth.to_string())
}

/// POST `body` (JSON) to `path`; the answer's body, or why there is none.
pub fn post(authority: &str, path: &str, body: &str) -> Result<String, String> {
    let mut s =
        TcpStream::connect(authority).map_err(|e| format!("cannot connect to {authority}: {e}"))?;
    s.set_read_timeout(Some(Duration::from_secs(10))).ok();
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes())
        .map_err(|e| format!("{authority}: {e}"))?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw)
        .map_err(|e| format!("{authority}: {e}"))?;
    parse(&raw)
}

/// Status line, headers, body (dechunked).
fn parse(raw: &[u8]) -> Result<String, String> {
    let text = String::from_utf8_lossy(raw);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or("a truncated HTTP answer")?;
    let status = head.lines().next().unwrap_or("");
    if status.split_whitespace().nth(1) != Some("200") {
        return Err(format!("{status}: {}", body.trim()));
    }
    let chunked = head.lines().any(|l| {
        let l = l.to_ascii_lowercase();
        l.starts_with("transfer-encoding:") && l.contains("chunked")
    });
    if !chunked {
        return Ok(body.to_string());
    }
    let mut out = String::new();
    let mut rest = body;
    loop {
        let (size, after) = rest.split_once("\r\n").ok_or("a truncated chunk")?;
        let n = usize::from_str_radix(size.trim(), 16)
            .map_err(|_| format!("a bad chunk size {size:?}"))?;
        if n == 0 {
            return Ok(out);
        }
        out.push_str(after.get(..n).ok_or("a truncated chunk")?);
        rest = after.get(n..).unwrap_or("").trim_start_matches("\r\n");
    }
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64, as etcd's gateway writes keys and values.
pub fn b64(data: &[u8]) -> String {
    let mut out = String::new();
    for c in data.chunks(3) {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        for i in 0..4 {
            if i <= c.len() {
                out.push(B64[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

pub fn unb64(s: &str) -> Option<Vec<u8>> {
    let mut bits = 0u32;
    let mut n = 0;
    let mut out = Vec::new();
    for ch in s.bytes().filter(|&b| b != b'=') {
        bits = bits << 6 | B64.iter().position(|&x| x == ch)? as u32;
        n += 6;
        if n >= 8 {
            n -= 8;
            out.push((bits >> n) as u8);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips_like_etcds() {
        assert_eq!(b64(b"lock"), "bG9jaw==");
        assert_eq!(b64(b"W1"), "VzE=");
        assert_eq!(b64(b"abc"), "YWJj");
        assert_eq!(unb64("VzE=").unwrap(), b"W1");
        assert_eq!(unb64("bG9jaw==").unwrap(), b"lock");
    }

    #[test]
    fn chunked_answers_are_joined() {
        let raw = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n";
        assert_eq!(parse(raw).unwrap(), "hello world");
        let err = parse(b"HTTP/1.1 404 Not Found\r\n\r\nnope").unwrap_err();
        assert!(err.starts_with("HTTP/1.1 404"), "{err}");
    }

    #[test]
    fn only_plain_loopback_style_urls_are_taken() {
        assert_eq!(
            authority("http://127.0.0.1:2379").unwrap(),
            "127.0.0.1:2379"
        );
        assert!(authority("https://x:1").is_err());
        assert!(authority("http://x:1/v3").is_err());
    }
}
