//! For the tests: a hand reader held to serde's derive (a test-only
//! derive of the same type, or a copy of it with the attributes it had).

use super::FromValue;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Both readers accept `text` and read the same thing (compared as the
/// JSON each writes), or both refuse it; `true` when accepted.
pub fn agree<Ours: Serialize + FromValue, Theirs: Serialize + DeserializeOwned>(
    text: &str,
) -> bool {
    let ours = super::read::<Ours>(text.as_bytes());
    let theirs = serde_json::from_str::<Theirs>(text);
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => {
            assert_eq!(
                serde_json::to_value(a).unwrap(),
                serde_json::to_value(b).unwrap(),
                "{text}"
            );
            true
        }
        (Err(_), Err(_)) => false,
        _ => panic!("{text}: ours {:?}, derived {:?}", ours.err(), theirs.err()),
    }
}
