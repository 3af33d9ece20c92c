//! Positives found by their context: private keys, JWTs, credentials in URLs, Authorization
//! headers and secret-named assignments (with the providers that have no prefix of their own).

use super::*;

/// A password with symbols in the middle (so it never starts like a placeholder).
fn symbol_password(r: &mut Rng, n: usize) -> String {
    symbols_from(r, n, "!#%^*@~?")
}

/// The same, with symbols from `set` (a URL's password leaves out `#`, `?`, `@` and `/`).
fn symbols_from(r: &mut Rng, n: usize, set: &str) -> String {
    loop {
        let mut s = r.mixed(&alnum(), n);
        let at = 2 + (r.next() % (n as u64 - 4)) as usize;
        let sym = r.pick(set, 2);
        s.replace_range(at..at + 2, &sym);
        let b = s.as_bytes();
        if b.iter().any(u8::is_ascii_digit) && b.iter().any(u8::is_ascii_uppercase) {
            return s;
        }
    }
}

fn private_keys(r: &mut Rng, v: &mut Vec<Case>) {
    const F: &str = "private keys";
    let begin = |label: &str| format!("-----{} {label}-----", "BEGIN");
    let end = |label: &str| format!("-----{} {label}-----", "END");
    for label in [
        "RSA PRIVATE KEY",
        "PRIVATE KEY",
        "EC PRIVATE KEY",
        "OPENSSH PRIVATE KEY",
    ] {
        let key = format!("{}\n{}\n{}", begin(label), pem_body(r, 6, "\n"), end(label));
        v.push(pos(F, "private-key", "Key file:\n", key, "\nend of file\n"));
    }
    let label = "OPENSSH PRIVATE KEY";
    let key = format!(
        "{}\\n{}\\n{}",
        begin(label),
        pem_body(r, 4, "\\n"),
        end(label)
    );
    v.push(pos(
        F,
        "private-key",
        r#"{"type": "user", "message": {"content": "here: "#,
        key,
        r#"\n"}}"#,
    ));
    let key = format!(
        "{}\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,{}\n\n{}\n{}",
        begin("RSA PRIVATE KEY"),
        r.pick(HEX, 32).to_uppercase(),
        pem_body(r, 5, "\n"),
        end("RSA PRIVATE KEY")
    );
    v.push(pos(F, "private-key", "", key, "\n"));
    let key = format!(
        "{}\nVersion: GnuPG v2\n\n{}\n{}",
        begin("PGP PRIVATE KEY BLOCK"),
        pem_body(r, 5, "\n"),
        end("PGP PRIVATE KEY BLOCK")
    );
    v.push(pos(F, "private-key", "", key, ""));
    // a key cut before its END line still has its body redacted
    let key = format!("{}\n{}", begin("PRIVATE KEY"), pem_body(r, 3, "\n"));
    v.push(pos(
        F,
        "private-key",
        "",
        key,
        "\n\nand then the note went on.",
    ));
    // an OpenSSH key whose body is only its fixed, low-entropy first line
    let mut raw = b"openssh-key-v1\0".to_vec();
    for part in [&b"none"[..], b"none", b""] {
        raw.extend_from_slice(&(part.len() as u32).to_be_bytes());
        raw.extend_from_slice(part);
    }
    raw.extend_from_slice(&[0, 0, 0, 1, 0, 0, 0, 0x33, 0, 0, 0, 0x0b]);
    raw.extend_from_slice(b"ssh-ed25519");
    let line: String = b64_encode(&raw, false).chars().take(70).collect();
    let key = format!("{}\n{line}\n{}", begin(label), end(label));
    v.push(pos(F, "private-key", "id_ed25519:\n", key, "\n"));
    // a PEM block wrapped in base64, as a Kubernetes secret holds it
    let pem = format!(
        "{}\n{}\n{}\n",
        begin("RSA PRIVATE KEY"),
        pem_body(r, 8, "\n"),
        end("RSA PRIVATE KEY")
    );
    v.push(pos(
        F,
        "private-key",
        "data:\n  tls.key: ",
        b64_encode(pem.as_bytes(), false),
        "\n",
    ));
}

fn urls(r: &mut Rng, v: &mut Vec<Case>) {
    const F: &str = "credentials in URLs";
    for (scheme, user, host) in [
        ("postgres", "app", "db.internal:5432/app"),
        ("mysql", "svc", "10.0.0.5:3306/shop"),
        ("https", "deploy", "git.example.org/team/repo.git"),
        ("redis", "", "cache.local:6379/0"),
        ("mongodb+srv", "svc", "cluster0.abcde.mongodb.net/"),
        ("amqp", "worker", "mq:5672"),
        ("ftp", "upload", "files.example.net/in"),
        ("smtp", "mailer", "smtp.example.com:587"),
        ("ldap", "cn=admin", "ldap.example.com"),
    ] {
        let pw = r.mixed(&alnum(), 18);
        v.push(pos(
            F,
            "url-credentials",
            &format!("DATABASE_URL={scheme}://{user}:"),
            pw,
            &format!("@{host}\n"),
        ));
    }
    let pw = format!("hunter{}", r.pick(DIGITS, 3));
    v.push(pos(
        F,
        "url-credentials",
        "clone https://ada:",
        pw,
        "@example.com/repo",
    ));
    let pw = symbols_from(r, 14, "!*~^$");
    v.push(pos(
        F,
        "url-credentials",
        "amqps://rabbit:",
        pw,
        "@broker.example.com/vhost",
    ));
}

fn headers(r: &mut Rng, v: &mut Vec<Case>) {
    const F: &str = "Authorization headers";
    const K: &str = "authorization-header";
    for _ in 0..2 {
        let t = r.mixed(&format!("{}._-", alnum()), 40);
        v.push(pos(
            F,
            K,
            "curl -H \"Authorization: Bearer ",
            t,
            "\" https://api.example.com",
        ));
        let creds = format!("deploy:{}", r.mixed(&alnum(), 16));
        v.push(pos(
            F,
            K,
            "Authorization: Basic ",
            b64_encode(creds.as_bytes(), false),
            "\r\n",
        ));
    }
    let t = r.mixed(&alnum(), 32);
    v.push(pos(
        F,
        K,
        r#"{"headers": {"authorization": "bearer "#,
        t,
        r#""}}"#,
    ));
    let t = r.pick(HEX, 40);
    v.push(pos(F, K, "Authorization: Token ", t, "\n"));
    let t = r.mixed(&alnum(), 32);
    v.push(pos(
        F,
        K,
        "headers = {\"Authorization\": \"Api-Token ",
        t,
        "\"}",
    ));
    let t = r.pick(HEX, 32);
    v.push(pos(F, "generic-api-key", "Api-Token: ", t, "\r\n"));
    let t = r.mixed(&alnum(), 40);
    v.push(pos(F, "generic-api-key", "-H 'X-Api-Key: ", t, "'"));
    let creds = format!("{}:{}", r.pick(LOWER, 6), symbol_password(r, 12));
    v.push(pos(
        F,
        K,
        "Authorization: Basic ",
        b64_encode(creds.as_bytes(), false),
        "\n",
    ));
}

fn assignments(r: &mut Rng, v: &mut Vec<Case>) {
    const F: &str = "secret-named assignments";
    const K: &str = "generic-api-key";
    for (before, after) in [
        ("api_key = \"", "\"\n"),
        ("\"client_secret\": \"", "\",\n"),
        ("DB_PASSWORD=", "\n"),
        ("secret_key_base: ", "\n"),
        ("  apiKey: '", "'\n"),
        ("const accessToken = `", "`;\n"),
        (
            r#"{"content": "set \"api_key\": \""#,
            r#"\" in the config"}"#,
        ),
        ("spring.datasource.password=", "\n"),
        ("auth_token := \"", "\"\n"),
        ("[service]\nsigning_key = \"", "\"\n"),
    ] {
        let s = r.mixed(&format!("{}+/", alnum()), 40);
        v.push(pos(F, K, before, s, after));
    }
    let s = r.mixed(&alnum(), 16);
    v.push(pos(F, K, "token=", s, ""));
    for (before, after) in [
        ("password = \"", "\"\n"),
        ("DB_PASSWORD=", "\n"),
        ("  passphrase: '", "'\n"),
        (
            "Server=tcp:db.example.net,1433;Database=app;User ID=app;Password=",
            ";Encrypt=true;",
        ),
        ("Host=pg;Username=app;Pwd=", ";"),
        ("SECRET_KEY=", "\n"),
    ] {
        let s = symbol_password(r, 16);
        v.push(pos(F, K, before, s, after));
    }
}

fn named(r: &mut Rng, v: &mut Vec<Case>) {
    let key = r.mixed(&b64(), 40);
    v.push(pos(
        "AWS",
        "aws-secret-access-key",
        "aws_secret_access_key = ",
        key,
        "\n",
    ));
    let key = r.mixed(&alnum(), 40);
    v.push(pos(
        "Cohere",
        "cohere-api-token",
        "COHERE_API_KEY=",
        key,
        "\n",
    ));
    let key = r.mixed(&alnum(), 40);
    v.push(pos(
        "Cohere",
        "cohere-api-token",
        "co = cohere.Client(api_key=None)\nCO_API_KEY = \"",
        key,
        "\"\n",
    ));
    let key = r.mixed(&alnum(), 32);
    v.push(pos(
        "Mistral",
        "mistral-api-key",
        "MISTRAL_API_KEY=\"",
        key,
        "\"\n",
    ));
    let key = r.mixed(&alnum(), 32);
    v.push(pos(
        "Mistral",
        "mistral-api-key",
        "{\"mistral_api_key\": \"",
        key,
        "\"}",
    ));
    let key = r.pick(HEX, 64);
    v.push(pos(
        "Together",
        "togetherai-api-key",
        "TOGETHER_API_KEY=",
        key,
        "\n",
    ));
    named_2(r, v);
}

fn named_2(r: &mut Rng, v: &mut Vec<Case>) {
    let key = r.pick(HEX, 32);
    v.push(pos(
        "Twilio",
        "twilio-auth-token",
        "TWILIO_AUTH_TOKEN=",
        key,
        "\n",
    ));
    let key = r.pick(HEX, 32);
    v.push(pos(
        "Linear",
        "linear-client-secret",
        "LINEAR_CLIENT_SECRET=",
        key,
        "\n",
    ));
    let id = b64_encode(r.pick(DIGITS, 18).as_bytes(), true);
    let token = format!(
        "{id}.{}{}.{}",
        r.pick(DIGITS, 1),
        r.mixed(&url64(), 5),
        r.mixed(&url64(), 38)
    );
    v.push(pos(
        "Discord",
        "discord-api-token",
        "DISCORD_BOT_TOKEN=",
        token.clone(),
        "\n",
    ));
    v.push(pos(
        "Discord",
        "authorization-header",
        "Authorization: Bot ",
        token,
        "\n",
    ));
    let jwts = [
        r#"{"alg":"HS256","typ":"JWT"}"#,
        r#"{"alg":"RS256","kid":"k1","typ":"JWT"}"#,
        r#"{"typ":"JWT","alg":"ES384"}"#,
    ];
    for header in jwts {
        v.push(pos("JWT", "jwt", "session=", jwt(r, header), "; Path=/"));
    }
    v.push(pos(
        "JWT",
        "jwt",
        "the token was ",
        jwt(r, r#"{"alg":"HS512"}"#),
        ". It expired.",
    ));
}

pub(crate) fn positives() -> Vec<Case> {
    let r = &mut Rng(0x9E37_79B9_7F4A_7C15);
    let mut v = Vec::new();
    private_keys(r, &mut v);
    urls(r, &mut v);
    headers(r, &mut v);
    assignments(r, &mut v);
    named(r, &mut v);
    cohere(&mut v);
    v
}

/// Cohere keys in gitleaks' keyword context: a name holding `cohere` that is no secret name of
/// its own, then an assignment (its own generator, so the cases before keep their values).
fn cohere(v: &mut Vec<Case>) {
    let r = &mut Rng(0xC0_4E4E_0001);
    let contexts = [
        ("cohere: ", "\n"),
        ("{\"cohere\": \"", "\"}"),
        ("export COHERE=", "\n"),
        ("COHERE_PROD = '", "'\n"),
        ("os.environ.setdefault(\"cohere\", \"", "\")"),
        ("Cohere.default => `", "`;"),
    ];
    for (before, after) in contexts {
        let key = r.mixed(&alnum(), 40);
        v.push(pos("Cohere", "cohere-api-token", before, key, after));
    }
}
