#![no_main]
#[path = "common.rs"]
mod common;

// The differential target of the decoded strings (docs/security.md, "Fuzzing"): a document that
// the project's reader and a second, independent parser both accept (basic-toml for TOML,
// tinyjson for JSON: neither shares a lexer with the toml crate or serde_json) has every string
// the second parser sees, keys and values, in the text the rules judge (the decoded view, or the
// text as written when there is nothing to decode). Then the whole check over it as a pass file
// and a transcript.
use hippo_packs::model::decode;

/// Every string a serde deserializer hands out, keys included.
struct Strings(Vec<String>);

impl<'de> serde::Deserialize<'de> for Strings {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut out = Vec::new();
        d.deserialize_any(Collect(&mut out))?;
        Ok(Strings(out))
    }
}

struct Collect<'a>(&'a mut Vec<String>);

impl<'de> serde::de::DeserializeSeed<'de> for Collect<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Collect<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any value")
    }
    fn visit_str<E>(self, v: &str) -> Result<(), E> {
        self.0.push(v.to_string());
        Ok(())
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<(), A::Error> {
        while a.next_element_seed(Collect(self.0))?.is_some() {}
        Ok(())
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<(), A::Error> {
        while a.next_key_seed(Collect(self.0))?.is_some() {
            a.next_value_seed(Collect(self.0))?;
        }
        Ok(())
    }
}

fn json_strings(v: &tinyjson::JsonValue, out: &mut Vec<String>) {
    use tinyjson::JsonValue;
    match v {
        JsonValue::String(s) => out.push(s.clone()),
        JsonValue::Array(a) => a.iter().for_each(|i| json_strings(i, out)),
        JsonValue::Object(o) => o.iter().for_each(|(k, v)| {
            out.push(k.clone());
            json_strings(v, out);
        }),
        _ => {}
    }
}

/// Every string the second parser saw is in the text the rules judge.
fn all_reach_the_rules(text: &str, view: Option<decode::View>, seen: &[String]) {
    // basic-toml folds CR LF in a multi-line string to LF, as TOML allows; the toml crate keeps
    // it. Both sides are compared with it folded.
    let judged = view.as_ref().map_or(text, |v| v.text.as_str()).replace("\r\n", "\n");
    for s in seen {
        let s = s.replace("\r\n", "\n");
        assert!(judged.contains(s.as_str()), "{s:?} is not in {judged:?}");
    }
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if hippo_packs::model::toml_spans::parse(text).is_ok()
        && let Ok(Strings(seen)) = basic_toml::from_str::<Strings>(text)
    {
        all_reach_the_rules(text, decode::view("pack.toml", text), &seen);
    }
    // serde_json's tree keeps its recursion limit (skipping a value does not): tinyjson, which
    // has none, is asked only about documents within it, or it overflows the stack.
    if serde_json::from_str::<serde_json::Value>(text).is_ok()
        && let Ok(value) = text.parse::<tinyjson::JsonValue>()
    {
        let mut seen = Vec::new();
        json_strings(&value, &mut seen);
        // serde_json accepts a lone surrogate that tinyjson decodes some other way.
        if !seen.iter().any(|s| s.contains('\u{FFFD}')) {
            all_reach_the_rules(text, decode::view("theme.json", text), &seen);
        }
    }
    common::check_with("passes/decision-log.toml", data);
    common::check_with("tests/cache-store/transcripts/decision-1.jsonl", data);
});
