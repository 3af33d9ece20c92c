//! What a transcript line is: the one definition of a record, for both formats.
//!
//! A line is read once, straight into these values: strings are borrowed from the line when
//! they hold no escape, keys the reader does not use are skipped without building anything, and
//! only the parts that are printed as JSON (a tool call's input, a tool's output) become a
//! [`Value`]. Every field accepts any JSON type and keeps which one it met, so a record of the
//! wrong shape is reported by the reader in `super::turn`, never as a JSON error. A key given
//! twice keeps its last value here, as JSON objects read by serde_json do; the reading also
//! says which key an object gave twice (`keys.rs`), and the transcript's reader refuses such a
//! line before it uses the record.

mod keys;

use keys::{Keys, Reads, Took};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

/// A line: an object is a record; anything else (`None`) is only "not a JSON object".
pub(super) struct Line<'a>(pub(crate) Option<Record<'a>>);

/// One record of either format (Claude Code keys and Codex keys side by side).
#[derive(Default)]
pub(super) struct Record<'a> {
    pub(crate) kind: Scalar<'a>,
    pub(crate) session: Scalar<'a>,
    pub(crate) timestamp: Scalar<'a>,
    /// Claude Code's `message` (only its `content` is read).
    pub(crate) content: Option<Content<'a>>,
    /// Codex's `payload`, when it is an object (boxed: a Claude Code record, which has none,
    /// stays small as it is handed from reader to reader).
    pub(crate) payload: Option<Box<Payload<'a>>>,
}

/// A Codex `payload` object.
#[derive(Default)]
pub(super) struct Payload<'a> {
    pub(crate) kind: Scalar<'a>,
    /// `session_meta`'s session id.
    pub(crate) id: Scalar<'a>,
    pub(crate) role: Scalar<'a>,
    pub(crate) name: Scalar<'a>,
    pub(crate) content: Option<Content<'a>>,
    pub(crate) arguments: Option<Value>,
    pub(crate) output: Option<Value>,
}

/// A content block (`text`, `tool_use`, `tool_result`, `thinking`, Codex `input_text` …).
/// A block that is not an object has every field absent.
#[derive(Default)]
pub(super) struct Block<'a> {
    pub(crate) kind: Scalar<'a>,
    pub(crate) text: Scalar<'a>,
    pub(crate) name: Scalar<'a>,
    pub(crate) input: Option<Value>,
    pub(crate) content: Option<Value>,
}

/// `content`: a string, a list of blocks, or another type (named for the message).
pub(super) enum Content<'a> {
    Text(Cow<'a, str>),
    Blocks(Vec<Block<'a>>),
    Other(&'static str),
}

/// A field read for its string; any other type is kept by name (`"a number"`, `"null"` …).
#[derive(Default)]
pub(super) enum Scalar<'a> {
    #[default]
    Absent,
    Str(Cow<'a, str>),
    Other(&'static str),
}

impl<'a> Scalar<'a> {
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Scalar::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// A JSON value's type as messages name it.
pub(super) fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => NULL,
        Value::Bool(_) => BOOL,
        Value::Number(_) => NUMBER,
        Value::String(_) => STRING,
        Value::Array(_) => ARRAY,
        Value::Object(_) => OBJECT,
    }
}

const NULL: &str = "null";
const BOOL: &str = "a boolean";
const NUMBER: &str = "a number";
const STRING: &str = "a string";
const ARRAY: &str = "an array";
const OBJECT: &str = "an object";

/// A visitor for a value that may be of any JSON type: each `visit_*` of [`Visitor`] forwards to
/// one of these, with the type's name for the ones a field does not read.
trait AnyValue<'de>: Sized {
    type Out;
    fn string(self, s: Cow<'de, str>) -> Self::Out;
    fn other(self, type_name: &'static str) -> Self::Out;
    fn object<A: MapAccess<'de>>(self, map: A) -> Result<Self::Out, A::Error>;
    /// A list: skipped unless the field reads it.
    fn list<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Out, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(self.other(ARRAY))
    }
}

/// Adapts an [`AnyValue`] to serde's [`Visitor`].
struct Any<T>(T);

impl<'de, T: AnyValue<'de>> Visitor<'de> for Any<T> {
    type Value = T::Out;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<T::Out, E> {
        Ok(self.0.other(BOOL))
    }
    fn visit_i64<E>(self, _: i64) -> Result<T::Out, E> {
        Ok(self.0.other(NUMBER))
    }
    fn visit_u64<E>(self, _: u64) -> Result<T::Out, E> {
        Ok(self.0.other(NUMBER))
    }
    fn visit_f64<E>(self, _: f64) -> Result<T::Out, E> {
        Ok(self.0.other(NUMBER))
    }
    fn visit_unit<E>(self) -> Result<T::Out, E> {
        Ok(self.0.other(NULL))
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<T::Out, E> {
        Ok(self.0.string(Cow::Borrowed(s)))
    }
    fn visit_str<E>(self, s: &str) -> Result<T::Out, E> {
        Ok(self.0.string(Cow::Owned(s.to_string())))
    }
    fn visit_string<E>(self, s: String) -> Result<T::Out, E> {
        Ok(self.0.string(Cow::Owned(s)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T::Out, A::Error> {
        self.0.list(seq)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T::Out, A::Error> {
        self.0.object(map)
    }
}

/// Reads a line: its record, and the first key an object of it gives twice (`keys::Keys`),
/// with `open` as room for the keys. serde_json's errors are `serde_json::from_str`'s.
pub(super) fn read<'l>(
    line: &'l str,
    open: &mut Vec<(usize, usize)>,
) -> Result<(Line<'l>, Option<String>), serde_json::Error> {
    let keys = Keys::new(line, std::mem::take(open));
    let mut de = serde_json::Deserializer::from_str(line);
    let read = With::<Line>::new(&keys)
        .deserialize(&mut de)
        .and_then(|l| de.end().map(|()| l));
    let (twice, room) = keys.finish();
    *open = room;
    read.map(|l| (l, twice))
}

/// A value read with the line's [`Keys`].
trait Read<'de>: Sized {
    fn read<D: Deserializer<'de>>(d: D, keys: &Keys<'de>) -> Result<Self, D::Error>;
}

/// Reads a `T` as a seed: serde's way to hand the line's [`Keys`] down.
struct With<'k, 'de, T>(&'k Keys<'de>, PhantomData<T>);

impl<'k, 'de, T> With<'k, 'de, T> {
    fn new(keys: &'k Keys<'de>) -> Self {
        With(keys, PhantomData)
    }
}

impl<'de, T: Read<'de>> DeserializeSeed<'de> for With<'_, 'de, T> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        T::read(d, self.0)
    }
}

/// Reads an object's keys, handing each to `field` (which reads its value or skips it, and
/// says how, with the bit of a name it knows), and compares them (`Keys`).
fn fields<'de, A, F>(keys: &Keys<'de>, mut map: A, mut field: F) -> Result<(), A::Error>
where
    A: MapAccess<'de>,
    F: FnMut(&str, &mut A) -> Result<Took, A::Error>,
{
    let from = keys.object();
    let mut seen = 0;
    while let Some(key) = map.next_key::<Key<'de>>()? {
        let borrowed = match key.0 {
            Cow::Borrowed(k) => Some(k),
            Cow::Owned(_) => None,
        };
        let placed = keys.key(borrowed);
        let took = field(&key.0, &mut map)?;
        if let Some(placed) = placed {
            keys.field(from, placed, took, &mut seen);
        }
    }
    keys.close(from);
    Ok(())
}

/// Sets a field to the value read, and gives the bit of its name.
fn set<T>(field: &mut T, value: T, bit: u32) -> u32 {
    *field = value;
    bit
}

/// A key the reader knows by name, its bit, read as `reads` says.
fn known(bit: u32, reads: Reads) -> Took {
    Took { known: bit, reads }
}

/// The value of the key just read, as a `T`.
fn value<'de, T: Read<'de>, A: MapAccess<'de>>(
    map: &mut A,
    keys: &Keys<'de>,
) -> Result<T, A::Error> {
    map.next_value_seed(With::<T>::new(keys))
}

/// An object key, borrowed when it holds no escape.
struct Key<'a>(Cow<'a, str>);

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct K;
        impl<'de> AnyValue<'de> for K {
            type Out = Key<'de>;
            fn string(self, s: Cow<'de, str>) -> Key<'de> {
                Key(s)
            }
            fn other(self, _: &'static str) -> Key<'de> {
                Key(Cow::Borrowed(""))
            }
            fn object<A: MapAccess<'de>>(self, _: A) -> Result<Key<'de>, A::Error> {
                Ok(Key(Cow::Borrowed("")))
            }
        }
        d.deserialize_str(Any(K))
    }
}

/// Skips the value of a key the reader does not know (no recursion limit; a lone surrogate in
/// a string is accepted).
fn skip<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Took, A::Error> {
    map.next_value::<IgnoredAny>()
        .map(|_| known(0, Reads::Nothing))
}

/// Reads the value of the known key of bit `bit` as a [`Value`] (its keys are scanned: `Value`
/// keeps a key's last value).
fn json<'de, A: MapAccess<'de>>(
    map: &mut A,
    bit: u32,
    to: &mut Option<Value>,
) -> Result<Took, A::Error> {
    *to = Some(map.next_value()?);
    Ok(known(bit, Reads::Nothing))
}

/// An object whose values are all skipped, read for its keys.
fn keys_only<'de, A: MapAccess<'de>>(keys: &Keys<'de>, map: A) -> Result<(), A::Error> {
    fields(keys, map, |_, map| skip(map))
}

impl<'de> Read<'de> for Line<'de> {
    fn read<D: Deserializer<'de>>(d: D, keys: &Keys<'de>) -> Result<Self, D::Error> {
        struct L<'k, 'de>(&'k Keys<'de>);
        impl<'de> AnyValue<'de> for L<'_, 'de> {
            type Out = Line<'de>;
            fn string(self, _: Cow<'de, str>) -> Line<'de> {
                Line(None)
            }
            fn other(self, _: &'static str) -> Line<'de> {
                Line(None)
            }
            /// A list is read whole, so one nested past serde_json's recursion limit is a JSON
            /// error, as it is anywhere else in a line that is read.
            fn list<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Line<'de>, A::Error> {
                while seq.next_element::<Value>()?.is_some() {}
                Ok(Line(None))
            }
            fn object<A: MapAccess<'de>>(self, map: A) -> Result<Line<'de>, A::Error> {
                let keys = self.0;
                let mut r = Record::default();
                fields(keys, map, |key, map| {
                    let bit = match key {
                        "type" => set(&mut r.kind, value(map, keys)?, 1),
                        "sessionId" => set(&mut r.session, value(map, keys)?, 2),
                        "timestamp" => set(&mut r.timestamp, value(map, keys)?, 4),
                        "message" => set(&mut r.content, value::<Message, _>(map, keys)?.0, 8),
                        "payload" => {
                            set(&mut r.payload, value::<MaybePayload, _>(map, keys)?.0, 16)
                        }
                        _ => return skip(map),
                    };
                    Ok(known(bit, Reads::Objects))
                })?;
                Ok(Line(Some(r)))
            }
        }
        d.deserialize_any(Any(L(keys)))
    }
}

impl<'de> Read<'de> for Scalar<'de> {
    fn read<D: Deserializer<'de>>(d: D, keys: &Keys<'de>) -> Result<Self, D::Error> {
        struct S<'k, 'de>(&'k Keys<'de>);
        impl<'de> AnyValue<'de> for S<'_, 'de> {
            type Out = Scalar<'de>;
            fn string(self, s: Cow<'de, str>) -> Scalar<'de> {
                Scalar::Str(s)
            }
            fn other(self, type_name: &'static str) -> Scalar<'de> {
                Scalar::Other(type_name)
            }
            fn object<A: MapAccess<'de>>(self, map: A) -> Result<Scalar<'de>, A::Error> {
                keys_only(self.0, map)?;
                Ok(Scalar::Other(OBJECT))
            }
        }
        d.deserialize_any(Any(S(keys)))
    }
}

/// Claude Code's `message`: the `content` of an object; nothing for any other type.
struct Message<'a>(Option<Content<'a>>);

impl<'de> Read<'de> for Message<'de> {
    fn read<D: Deserializer<'de>>(d: D, keys: &Keys<'de>) -> Result<Self, D::Error> {
        struct M<'k, 'de>(&'k Keys<'de>);
        impl<'de> AnyValue<'de> for M<'_, 'de> {
            type Out = Message<'de>;
            fn string(self, _: Cow<'de, str>) -> Message<'de> {
                Message(None)
            }
            fn other(self, _: &'static str) -> Message<'de> {
                Message(None)
            }
            fn object<A: MapAccess<'de>>(self, map: A) -> Result<Message<'de>, A::Error> {
                let keys = self.0;
                let mut content = None;
                fields(keys, map, |key, map| match key {
                    "content" => {
                        content = Some(value(map, keys)?);
                        Ok(known(1, Reads::ObjectsAndLists))
                    }
                    _ => skip(map),
                })?;
                Ok(Message(content))
            }
        }
        d.deserialize_any(Any(M(keys)))
    }
}

impl<'de> Read<'de> for Content<'de> {
    fn read<D: Deserializer<'de>>(d: D, keys: &Keys<'de>) -> Result<Self, D::Error> {
        struct C<'k, 'de>(&'k Keys<'de>);
        impl<'de> AnyValue<'de> for C<'_, 'de> {
            type Out = Content<'de>;
            fn string(self, s: Cow<'de, str>) -> Content<'de> {
                Content::Text(s)
            }
            fn other(self, type_name: &'static str) -> Content<'de> {
                Content::Other(type_name)
            }
            fn list<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Content<'de>, A::Error> {
                let mut blocks = Vec::with_capacity(seq.size_hint().unwrap_or(2));
                while let Some(b) = seq.next_element_seed(With::<Block>::new(self.0))? {
                    blocks.push(b);
                }
                Ok(Content::Blocks(blocks))
            }
            fn object<A: MapAccess<'de>>(self, map: A) -> Result<Content<'de>, A::Error> {
                keys_only(self.0, map)?;
                Ok(Content::Other(OBJECT))
            }
        }
        d.deserialize_any(Any(C(keys)))
    }
}

impl<'de> Read<'de> for Block<'de> {
    fn read<D: Deserializer<'de>>(d: D, keys: &Keys<'de>) -> Result<Self, D::Error> {
        struct B<'k, 'de>(&'k Keys<'de>);
        impl<'de> AnyValue<'de> for B<'_, 'de> {
            type Out = Block<'de>;
            fn string(self, _: Cow<'de, str>) -> Block<'de> {
                Block::default()
            }
            fn other(self, _: &'static str) -> Block<'de> {
                Block::default()
            }
            /// A list as a block is skipped; its place in the line is not known, so the line is
            /// scanned whole for a key given twice.
            fn list<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Block<'de>, A::Error> {
                self.0.unplaced();
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Block::default())
            }
            fn object<A: MapAccess<'de>>(self, map: A) -> Result<Block<'de>, A::Error> {
                let keys = self.0;
                let mut b = Block::default();
                fields(keys, map, |key, map| {
                    let bit = match key {
                        "type" => set(&mut b.kind, value(map, keys)?, 1),
                        "text" => set(&mut b.text, value(map, keys)?, 2),
                        "name" => set(&mut b.name, value(map, keys)?, 4),
                        "input" => return json(map, 8, &mut b.input),
                        "content" => return json(map, 16, &mut b.content),
                        _ => return skip(map),
                    };
                    Ok(known(bit, Reads::Objects))
                })?;
                Ok(b)
            }
        }
        d.deserialize_any(Any(B(keys)))
    }
}

/// Codex's `payload`: a [`Payload`] when it is an object.
struct MaybePayload<'a>(Option<Box<Payload<'a>>>);

impl<'de> Read<'de> for MaybePayload<'de> {
    fn read<D: Deserializer<'de>>(d: D, keys: &Keys<'de>) -> Result<Self, D::Error> {
        struct P<'k, 'de>(&'k Keys<'de>);
        impl<'de> AnyValue<'de> for P<'_, 'de> {
            type Out = MaybePayload<'de>;
            fn string(self, _: Cow<'de, str>) -> MaybePayload<'de> {
                MaybePayload(None)
            }
            fn other(self, _: &'static str) -> MaybePayload<'de> {
                MaybePayload(None)
            }
            fn object<A: MapAccess<'de>>(self, map: A) -> Result<MaybePayload<'de>, A::Error> {
                let keys = self.0;
                let mut p = Payload::default();
                fields(keys, map, |key, map| {
                    let bit = match key {
                        "type" => set(&mut p.kind, value(map, keys)?, 1),
                        "id" => set(&mut p.id, value(map, keys)?, 2),
                        "role" => set(&mut p.role, value(map, keys)?, 4),
                        "name" => set(&mut p.name, value(map, keys)?, 8),
                        "content" => {
                            p.content = Some(value(map, keys)?);
                            return Ok(known(16, Reads::ObjectsAndLists));
                        }
                        "arguments" => return json(map, 32, &mut p.arguments),
                        "output" => return json(map, 64, &mut p.output),
                        _ => return skip(map),
                    };
                    Ok(known(bit, Reads::Objects))
                })?;
                Ok(MaybePayload(Some(Box::new(p))))
            }
        }
        d.deserialize_any(Any(P(keys)))
    }
}

/// `a` or `an` before a record's type (`an assistant record`, `a user record`).
pub(crate) fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o']) {
        "an"
    } else {
        "a"
    }
}
