//! Secret-named assignments: `<name> = <literal>` where the name says the value is a secret
//! (`api_key`, `client_secret`, `DB_PASSWORD`, `X-Api-Key`) and the literal looks random. A
//! provider named in the key (`MISTRAL_API_KEY`, `cohere_token`) names the kind.

use super::keys::escaped;
use super::shape::*;

type Found = Option<(&'static str, usize, usize)>;

/// Parts of secret names as the text writes them, lower case and UPPER case; the middle of a
/// word where its first letter may be either case (`oken` finds `token` and `Token`). The
/// scanner reads the whole name around them.
pub(crate) const ANCHORS: &[&str] = &[
    "key",
    "Key",
    "KEY",
    "oken",
    "OKEN",
    "ecret",
    "ECRET",
    "assw",
    "ASSW",
    "assp",
    "ASSP",
    "pwd",
    "Pwd",
    "PWD",
    "redential",
    "REDENTIAL",
];

/// A provider in the key's name, and the kind a secret assigned to it carries.
pub(crate) const NAMED: &[(&str, &str, &str)] = &[
    ("mistral", "mistral-api-key", "Mistral"),
    ("cohere", "cohere-api-token", "Cohere"),
    ("together", "togetherai-api-key", "Together"),
    ("discord", "discord-api-token", "Discord"),
    ("linear", "linear-client-secret", "Linear"),
    ("twilio", "twilio-auth-token", "Twilio"),
    ("azure", "azure-ad-client-secret", "Azure"),
    ("aws", "aws-secret-access-key", "AWS"),
];

/// The parts a name is made of: split at `_`, `.`, `-` and lower-to-upper case changes,
/// lowercased (`clientSecret` → `client`, `secret`).
pub(crate) fn name_parts(name: &[u8]) -> Vec<String> {
    let mut parts = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for &b in name {
        if b == b'_' || b == b'.' || b == b'-' {
            if !cur.is_empty() {
                parts.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if b.is_ascii_uppercase() && prev_lower && !cur.is_empty() {
            parts.push(std::mem::take(&mut cur));
        }
        prev_lower = b.is_ascii_lowercase() || b.is_ascii_digit();
        cur.push(b.to_ascii_lowercase() as char);
    }
    if !cur.is_empty() {
        parts.push(cur);
    }
    parts
}

const SECRET: &[&str] = &[
    "token",
    "pat",
    "secret",
    "password",
    "passwd",
    "pwd",
    "passphrase",
    "credential",
    "credentials",
    "creds",
    "apikey",
    "accesskey",
    "secretkey",
    "privatekey",
    "authtoken",
    "accesstoken",
    "refreshtoken",
    "clientsecret",
];
const KEY_OF: &[&str] = &[
    "api",
    "access",
    "secret",
    "private",
    "signing",
    "encryption",
    "master",
    "client",
    "app",
    "service",
    "account",
    "license",
    "auth",
    "session",
    "shared",
    "webhook",
    "consumer",
    "subscription",
    "admin",
];
/// Services whose name before `key` says the key is theirs (`openai_key`, `AZURE_SEARCH_KEY`,
/// `stripe_key`), besides [`PROVIDERS`].
const KEY_OF_SERVICE: &[&str] = &[
    "search", "storage", "openai", "cohere", "mistral", "groq", "gemini", "deepseek", "sentry",
    "datadog", "heroku", "mailgun", "algolia", "firebase", "pinecone", "supabase", "vercel",
];
/// Providers whose name may follow the secret word (`TOKEN_GITHUB`, `AWS_BEARER_TOKEN_BEDROCK`).
const PROVIDERS: &[&str] = &[
    "bedrock",
    "github",
    "gitlab",
    "slack",
    "openai",
    "anthropic",
    "stripe",
    "npm",
    "pypi",
    "docker",
    "aws",
    "azure",
    "gcp",
    "google",
    "discord",
    "telegram",
    "twilio",
    "sendgrid",
];
/// Words before the secret word that make it public or not a credential: `csrf_token`,
/// `next_page_token`, `public_key`, `token_id`-like names end elsewhere anyway.
const PUBLIC: &[&str] = &[
    "csrf",
    "xsrf",
    "authenticity",
    "page",
    "next",
    "continuation",
    "cursor",
    "public",
    "publishable",
    "sync",
    "idempotency",
    "trace",
];

/// Whether a name says its value is a secret, and whether it says the value has symbols
/// (a password): it ends in a secret word (`token`, `secret`, `password`, `api_key`,
/// `client_secret`, `secret_key_base`, ...). `token_budget`, `max_tokens`, `password_field`,
/// `primary_key`, `csrf_token` and `next_page_token` do not.
pub(crate) fn secret_name(name: &[u8]) -> Option<bool> {
    let mut parts = name_parts(name);
    // `API_KEY_2`, `token2`: a number at the end says nothing.
    while parts
        .last()
        .is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit()))
    {
        parts.pop();
    }
    if let Some(last) = parts.last_mut() {
        while last.ends_with(|c: char| c.is_ascii_digit()) {
            last.pop();
        }
    }
    // `secret_key_base`, `api_key_value`, `AWS_BEARER_TOKEN_BEDROCK`: a last word that says
    // nothing more, or names the provider.
    if parts.len() >= 2
        && parts.last().is_some_and(|p| {
            matches!(p.as_str(), "value" | "base" | "string" | "str")
                || PROVIDERS.contains(&p.as_str())
        })
    {
        parts.pop();
    }
    let last = parts.last()?;
    if parts.iter().any(|p| PUBLIC.contains(&p.as_str())) {
        return None;
    }
    let password = parts.iter().any(|p| {
        matches!(
            p.as_str(),
            "password" | "passwd" | "pwd" | "passphrase" | "secret"
        )
    });
    if SECRET.contains(&last.as_str()) {
        return Some(password);
    }
    let before = parts.len().checked_sub(2).map(|k| parts[k].as_str());
    (last == "key"
        && before.is_some_and(|b| {
            KEY_OF.contains(&b) || KEY_OF_SERVICE.contains(&b) || PROVIDERS.contains(&b)
        }))
    .then_some(password)
}

/// Whole names that say which kind of secret they hold.
pub(crate) const NAMED_EXACTLY: &[(&[&str], &str, &str)] = &[
    (&["account", "key"], "azure-storage-account-key", "Azure"),
    (
        &["shared", "access", "key"],
        "azure-storage-account-key",
        "Azure",
    ),
];

/// The kind for a name: the name itself, a provider named in it, or `generic-api-key`.
fn kind_of(name: &[u8]) -> &'static str {
    let parts = name_parts(name);
    if let Some(&(_, kind, _)) = NAMED_EXACTLY
        .iter()
        .find(|(p, _, _)| *p == parts.as_slice())
    {
        return kind;
    }
    NAMED
        .iter()
        .find(|(p, _, _)| {
            parts.iter().any(|q| q == p) || (*p == "cohere" && parts == ["co", "api", "key"])
        })
        .map_or("generic-api-key", |&(_, kind, _)| kind)
}

/// The secret name around an anchor at `hit`: its start and end.
fn name_around(hay: &[u8], hit: usize, anchor_len: usize) -> Option<(usize, usize)> {
    let name_class = |b: u8| is_word(b) || b == b'.' || b == b'-';
    let lo = hit.saturating_sub(64);
    let mut s = hit;
    while s > lo && name_class(hay[s - 1]) {
        if matches!(hay[s - 1], b'n' | b'r' | b't') && s >= 2 && hay[s - 2] == b'\\' {
            break;
        }
        s -= 1;
    }
    let e = run_end(hay, hit + anchor_len, 64, name_class);
    (e - hit <= 64).then_some((s, e))
}

/// From the end of a name to the start of its value: an optional closing quote, then `=`, `:`,
/// `:=` or `=>`, then an optional opening quote. Returns where the value starts and its quote.
fn assignment(hay: &[u8], e: usize) -> Option<(usize, Option<u8>)> {
    let skip_quote = |j: usize| -> (usize, Option<u8>) {
        match hay.get(j) {
            Some(&q @ (b'"' | b'\'' | b'`')) => (j + 1, Some(q)),
            _ => match escaped(hay, j, b"\"'") {
                0 => (j, None),
                n => (j + n, Some(hay[j + n - 1])),
            },
        }
    };
    let (mut j, closed) = skip_quote(e);
    j = run_end(hay, j, 8, |b| b == b' ' || b == b'\t');
    // `.=` (PHP), `?=`, `??=`, `||=`, `::=`, `:::=` (make) assign too; `==`, `!=`, `<=` compare.
    let op = run_end(hay, j, 3, |b| matches!(b, b'.' | b'?' | b'|' | b':'));
    if op > j && op - j <= 3 && hay.get(op) == Some(&b'=') && hay.get(op + 1) != Some(&b'=') {
        j = op + 1;
    } else {
        match hay.get(j) {
            Some(b':') => {
                j += 1;
                if hay.get(j) == Some(&b'=') {
                    j += 1;
                }
            }
            Some(b'=') => {
                j += 1;
                match hay.get(j) {
                    Some(b'=') => return None,
                    Some(b'>') => j += 1,
                    _ => {}
                }
            }
            // `setProperty("API_TOKEN", "...")`, `env('TWILIO_API_KEY', '...')`: a quoted name,
            // then a comma and a quoted value.
            Some(b',') if closed.is_some() => {
                j = run_end(hay, j + 1, 8, |b| b == b' ' || b == b'\t');
                return matches!(hay.get(j), Some(b'"' | b'\'')).then(|| skip_quote(j));
            }
            _ => return None,
        }
    }
    j = run_end(hay, j, 8, |b| b == b' ' || b == b'\t');
    Some(skip_quote(j))
}

/// Whether the value ends where it should: at its closing quote, or (unquoted) at a space, the
/// end of the line or a separator.
fn terminated(hay: &[u8], end: usize, quote: Option<u8>) -> bool {
    match (quote, hay.get(end)) {
        (_, None) => quote.is_none(),
        (Some(q), Some(&b)) => b == q || escaped(hay, end, &[q]) > 0,
        (None, Some(&b)) => b.is_ascii_whitespace() || b",;)}]&#\\\"'`".contains(&b),
    }
}

/// `<secret name> = <literal>` (also `:`, `:=`, `=>`, quoted or not, in JSON, YAML, TOML, env
/// files and code): a literal of 16 to 256 characters with letters, digits and at least 3.5 bits
/// of entropy per character; or, for a password, 8 to 128 characters with symbols. The literal
/// is the match.
pub(crate) fn scan(hay: &[u8], hit: usize, anchor: &str) -> Found {
    let (s, e) = name_around(hay, hit, anchor.len())?;
    let password = secret_name(&hay[s..e])?;
    let (start, quote) = assignment(hay, e)?;
    let kind = kind_of(&hay[s..e]);
    let class = |b: u8| b.is_ascii_alphanumeric() || b"_.~+/=-".contains(&b);
    let end = run_end(hay, start, 256, class);
    let v = &hay[start..end];
    if digits(hay, s, e, v) && terminated(hay, end, quote) {
        return Some((kind, start, end));
    }
    if (16..=256).contains(&v.len())
        && terminated(hay, end, quote)
        && has_digit(v)
        && has_alpha(v)
        && entropy(v) >= if hex(v) { 3.0 } else { 3.5 }
        && !is_placeholder(v)
        && !is_code_reference(v)
    {
        return Some((kind, start, end));
    }
    if password {
        return symbols(hay, start, quote).map(|end| (kind, start, end));
    }
    None
}

/// A value of digits alone is a secret only when long and named for a provider's token or
/// secret (`DISCORD_TOKEN = "<18 digits>"`, `discordSecret: "<32 digits>"`): 17 or more digits
/// with 2.8 bits of entropy (a date, a count or a run of one digit has less).
fn digits(hay: &[u8], s: usize, e: usize, v: &[u8]) -> bool {
    let parts = name_parts(&hay[s..e]);
    let named = parts.iter().any(|p| NAMED.iter().any(|(w, _, _)| p == w));
    let last = parts.last().map(String::as_str);
    named
        && matches!(last, Some("token" | "secret"))
        && (17..=64).contains(&v.len())
        && v.iter().all(u8::is_ascii_digit)
        && entropy(v) >= 2.8
        && !is_placeholder(v)
}

/// 32 or more hex digits: a random value's entropy is at most 4 bits a character.
fn hex(v: &[u8]) -> bool {
    v.len() >= 32 && v.iter().all(u8::is_ascii_hexdigit)
}

/// A password with symbols (`Xq7!vR2#mK9$wL4p`): 8 to 128 printable characters, three of upper
/// case, lower case, digits and symbols, 3 bits of entropy (or, quoted, 10 or more with letters,
/// digits and 3.2 bits); unquoted, no brackets (a call or an index is code, not a value).
fn symbols(hay: &[u8], start: usize, quote: Option<u8>) -> Option<usize> {
    let class = |b: u8| {
        b.is_ascii_graphic()
            && !b"\"'`;,\\".contains(&b)
            && (quote.is_some() || !b"()[]{}<>".contains(&b))
    };
    let limit = hay.len().min(start + 129);
    let end = (start..limit).find(|&k| !class(hay[k])).unwrap_or(limit);
    let v = &hay[start..end];
    if !(8..=128).contains(&v.len()) || !terminated(hay, end, quote) {
        return None;
    }
    let classes = [
        v.iter().any(u8::is_ascii_uppercase),
        v.iter().any(u8::is_ascii_lowercase),
        has_digit(v),
        v.iter().any(|b| !b.is_ascii_alphanumeric()),
    ];
    // Quoted, 10 or more letters and digits with 3.2 bits: `password = 'abuser123456'`.
    let quoted_plain = quote.is_some() && v.len() >= 10 && has_digit(v) && entropy(v) >= 3.2;
    let ok = (classes.iter().filter(|&&c| c).count() >= 3 || quoted_plain)
        && has_alpha(v)
        && entropy(v) >= 3.0
        && !super::context::is_password_placeholder(v)
        && !is_code_reference(v)
        && !v.contains(&b'(');
    ok.then_some(end)
}

/// A name standing for the value rather than the value: `process.env.API_TOKEN_2`,
/// `settings.SECRET_KEY`, `SLACK_BOT_TOKEN_V2`, `x25519_generate_private_key`.
fn is_code_reference(v: &[u8]) -> bool {
    let ident = |s: &[u8]| {
        s.first()
            .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
            && s.iter().all(|&b| is_word(b))
    };
    // A part of 20 or more characters mixing both cases and digits is random, not a name.
    let random = |s: &[u8]| {
        s.len() >= 20
            && s.iter().any(u8::is_ascii_uppercase)
            && s.iter().any(u8::is_ascii_lowercase)
            && has_digit(s)
    };
    let parts = || v.split(|&b| b == b'.');
    let dotted = v.contains(&b'.') && parts().all(ident) && !parts().any(random);
    // `SLACK_BOT_TOKEN_V2`, `x25519_generate_private_key`: words joined by `_`, each in one case.
    let one_case = |s: &[u8]| {
        !s.is_empty()
            && (s.iter().all(|b| !b.is_ascii_uppercase())
                || s.iter().all(|b| !b.is_ascii_lowercase()))
    };
    let snake = v.iter().filter(|&&b| b == b'_').count() >= 2
        && v.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'_')
        && v.split(|&b| b == b'_').all(one_case);
    dotted || snake
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for n in [
            "api_key",
            "API_KEY",
            "apiKey",
            "x-api-key",
            "client_secret",
            "clientSecret",
            "DB_PASSWORD",
            "secret_key_base",
            "aws_secret_access_key",
            "GITHUB_TOKEN",
            "auth.token",
            "spring.datasource.password",
            "Api-Token",
        ] {
            assert!(secret_name(n.as_bytes()).is_some(), "{n} names a secret");
        }
        for n in [
            "token_budget",
            "max_tokens",
            "tokenizer",
            "password_field",
            "primary_key",
            "sort_key",
            "keywords",
            "secretary",
            "monkey",
            "csrf_token",
            "csrfToken",
            "next_page_token",
            "public_key",
        ] {
            assert!(
                secret_name(n.as_bytes()).is_none(),
                "{n} does not name a secret"
            );
        }
        assert_eq!(secret_name(b"DB_PASSWORD"), Some(true));
        assert_eq!(secret_name(b"api_key"), Some(false));
    }

    #[test]
    fn providers_name_the_kind() {
        assert_eq!(kind_of(b"MISTRAL_API_KEY"), "mistral-api-key");
        assert_eq!(kind_of(b"CO_API_KEY"), "cohere-api-token");
        assert_eq!(kind_of(b"api_key"), "generic-api-key");
        // control: a provider's name inside another word is not the provider
        assert_eq!(kind_of(b"awsome_token"), "generic-api-key");
    }

    #[test]
    fn parts_split_case_and_separators() {
        assert_eq!(name_parts(b"clientSecret"), ["client", "secret"]);
        assert_eq!(name_parts(b"X-Api-Key"), ["x", "api", "key"]);
        assert_eq!(name_parts(b"API_KEY2"), ["api", "key2"]);
    }
}
