//! The detector table: one row per kind of secret, as data. [`super::scan`] compiles every
//! row's anchors into one anchor search, so a row costs nothing per byte scanned; only
//! where one of its anchors occurs does the row look at the bytes around it.
//!
//! A row is either a token shape (a pattern matched where its anchor starts, the byte class
//! that may not follow, and a verification) or a scanner of its own for secrets that depend on
//! their context (a PEM block, a URL's password, an Authorization header, a secret-named
//! assignment). docs/redaction.md describes every row.

use super::context;
use super::curl;
use super::generic;
use super::keys;

/// How a token proves it is one, beyond its shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Verify {
    /// At least this many bits of entropy per character in the part after the anchor.
    Entropy(f64),
    /// Upper case, lower case and digits, and 3.5 bits of entropy (a random token among words).
    Mixed,
    /// GitHub's CRC32 tail: the last 6 characters are the base62 CRC32 of the 30 before them.
    GitHubCrc,
    /// npm's tokens carry the same CRC32 tail as GitHub's.
    NpmCrc,
    /// A PyPI token is `pypi-` and a base64url macaroon whose location is PyPI.
    PyPiMacaroon,
    /// Upper and lower case letters and 3.5 bits of entropy (Hugging Face's letters-only tokens).
    Cased,
    /// OpenAI's `T3BlbkFJ` marker, or [`Verify::Mixed`].
    OpenAi,
    /// A vendor's exact shape and length (a fixed suffix, a fixed encoded prefix): any value
    /// but a written placeholder (`xxxx`, `YOUR_...`, `EXAMPLE`).
    Exact,
}

/// The byte class that may not follow a token (so a longer run is not cut into a token).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// `[A-Za-z0-9_]`
    Word,
    /// `[A-Za-z0-9_-]`
    Url64,
    /// `[A-Za-z0-9+/=]`
    Base64,
    /// `[A-Za-z0-9_~.-]` (Azure's client secrets)
    Azure,
}

impl Stop {
    pub(crate) fn holds(self, b: u8) -> bool {
        b.is_ascii_alphanumeric()
            || match self {
                Stop::Word => b == b'_',
                Stop::Url64 => b == b'_' || b == b'-',
                Stop::Base64 => b == b'+' || b == b'/' || b == b'=',
                Stop::Azure => b"_~.-".contains(&b),
            }
    }
}

/// A scanner of its own: the bytes, where its anchor starts, the anchor as found. Returns the
/// kind and the span of the secret, which starts at or after the anchor.
pub(crate) type ScanFn = fn(&[u8], usize, &str) -> Option<(&'static str, usize, usize)>;

#[derive(Clone, Copy)]
pub(crate) enum Shape {
    /// A pattern (regex syntax, bytes, no Unicode) matched at the token's start, which is
    /// `back` bytes before the anchor; the byte after it may not be in `stop`.
    Token {
        pattern: &'static str,
        back: usize,
        stop: Stop,
        verify: Verify,
    },
    Scan(ScanFn),
}

#[derive(Clone, Copy)]
pub(crate) struct Detector {
    /// The kind, in gitleaks' vocabulary where it has one.
    pub(crate) id: &'static str,
    /// The family of docs/redaction.md's table and of the differential script.
    pub(crate) family: &'static str,
    /// Where the row looks: written as the text holds them; with `fold`, also searched
    /// Capitalized and in UPPER case. None: the row only names the kind of a secret-named
    /// assignment's value.
    pub(crate) anchors: &'static [&'static str],
    pub(crate) fold: bool,
    pub(crate) shape: Shape,
    /// FNV-1a 64 hashes of published sample values that are not secrets (the values themselves
    /// are not written here, so no scanner flags this file).
    pub(crate) samples: &'static [u64],
    /// One line for `hippo-packs rules redaction`.
    pub(crate) what: &'static str,
}

/// A token row: the kind, its family, its anchors, its pattern (anchored at the token's start),
/// the byte class that may not follow it, its evidence and one line for the kinds table.
pub(super) const fn token(
    id: &'static str,
    family: &'static str,
    anchors: &'static [&'static str],
    pattern: &'static str,
    stop: Stop,
    verify: Verify,
    what: &'static str,
) -> Detector {
    Detector {
        id,
        family,
        anchors,
        fold: false,
        shape: Shape::Token {
            pattern,
            back: 0,
            stop,
            verify,
        },
        samples: &[],
        what,
    }
}

const fn scanner(
    id: &'static str,
    family: &'static str,
    anchors: &'static [&'static str],
    fold: bool,
    scan: ScanFn,
    what: &'static str,
) -> Detector {
    Detector {
        id,
        family,
        anchors,
        fold,
        shape: Shape::Scan(scan),
        samples: &[],
        what,
    }
}

/// Slack's tokens all start with `xox` (but app tokens): one anchor for all, each row's pattern
/// tells them apart.
const SLACK: &[&str] = &["xox"];
/// The rows with no anchor of their own: shapes too short or too common to search for (`SK`,
/// `Q~`) or too rare to spend one of the finder's patterns on. They name the kind of a
/// secret-named assignment whose value has their shape (`TWILIO_API_KEY=SK...`).
const NAMED_ONLY: &[&str] = &[];
/// Azure AD client secrets: the digit before `Q~` and `Q~` (the three characters before are
/// read back from the anchor).
const AZURE_Q: &[&str] = &[
    "0Q~", "1Q~", "2Q~", "3Q~", "4Q~", "5Q~", "6Q~", "7Q~", "8Q~", "9Q~",
];

/// Google's published sample API keys (documentation and client samples).
const GOOGLE_SAMPLES: &[u64] = &[
    0xc800bf2100a21c67,
    0x6acbd824bd32bbd4,
    0x29a336c7244f48dd,
    0x08b545962adc7d8b,
    0xe7666dbb286c6c2e,
    0x99b2726346a1e92a,
    0x12113c2e6979f447,
    0x828818f833257868,
    0x6835e0f288832a40,
    0x816cd10fdb11ead0,
    0xadbd04e3fe1b6d49,
    0xdb9422f1dd332dcc,
    0x515cb771a4238032,
    0xe754678ea2b14ef1,
    0xc73f1e61952e6987,
    0x294c63f8344d5df1,
];

/// Stripe's documented test key (its API reference shows it to every reader).
const STRIPE_SAMPLES: &[u64] = &[0xddd19c486d095d84];

use Stop::*;
use Verify::*;

/// Written one row to a few lines, as a table reads (rustfmt would spread each over ten).
/// The token rows of the families that have scanners (`detectors.rs` puts them first).
#[rustfmt::skip]
pub(crate) static TOKENS: &[Detector] = &[
    scanner("private-key", "private keys", &["-----BEGIN"], false, keys::pem,
        "-----BEGIN ... PRIVATE KEY----- with a key's body (or an OpenSSH key's header line), to its END line"),
    scanner("private-key", "private keys", &["LS0tLS1CRUdJTi"], false, keys::pem_base64,
        "a PEM private key wrapped in base64 (LS0tLS1CRUdJTi...)"),
    token("aws-access-token", "AWS", &["AKIA", "ASIA", "ABIA", "ACCA", "A3T"],
        r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}", Word, Entropy(3.0),
        "AWS access key ids: AKIA/ASIA/ABIA/ACCA + 16 base32"),
    token("aws-amazon-bedrock-api-key-long-lived", "AWS", &["ABSKQmVkcm9ja0FQSUtleS"],
        r"ABSKQmVkcm9ja0FQSUtleS[A-Za-z0-9+/]{80,400}={0,2}", Base64, Entropy(4.0),
        "Amazon Bedrock long-lived API keys: ABSK + base64 of BedrockAPIKey- and more"),
    token("aws-amazon-bedrock-api-key-long-lived", "AWS", NAMED_ONLY,
        r"ABSK[A-Za-z0-9+/]{109,269}={0,2}", Base64, Entropy(4.0),
        "Amazon Bedrock long-lived API keys: ABSK + base64 (assigned to a secret-named key)"),
    Detector { samples: GOOGLE_SAMPLES, ..token("gcp-api-key", "GCP/Google", &["AIza"],
        r"AIza[A-Za-z0-9_-]{35}", Url64, Entropy(3.0),
        "Google API keys: AIza + 35 (Google's published sample keys are allowed)") },
    token("gcp-oauth-access-token", "GCP/Google", &["ya29."],
        r"ya29\.[A-Za-z0-9_-]{30,1024}", Url64, Mixed,
        "Google OAuth access tokens: ya29. + 30 or more"),
    token("gcp-oauth-client-secret", "GCP/Google", &["GOCSPX-"],
        r"GOCSPX-[A-Za-z0-9_-]{28}", Url64, Entropy(3.0),
        "Google OAuth client secrets: GOCSPX- + 28"),
    Detector { shape: Shape::Token { pattern: r"[A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}", back: 3,
        stop: Azure, verify: Entropy(3.5) }, ..token("azure-ad-client-secret", "Azure", AZURE_Q, "", Azure,
        Entropy(3.5), "Azure AD (Entra) client secrets: 3 characters, a digit, Q~, 31 to 34 more") },
    Detector { shape: Shape::Token { pattern: r"[A-Za-z0-9]{52}JQQJ[A-Za-z0-9]{20}AZDO[A-Za-z0-9]{4}", back: 76,
        stop: Word, verify: Exact }, ..token("azure-devops-pat", "Azure", &["AZDO"], "", Word, Exact,
        "Azure DevOps personal access tokens: 84 characters with JQQJ at 53 and AZDO at 77") },
    token("microsoft-teams-webhook", "Azure", &["office.com/webhook"],
        r"office\.com/webhook(?:b2)?/[0-9a-z-]{36}@[0-9a-z-]{36}/IncomingWebhook/[0-9a-z]{32}/[0-9a-z-]{36}",
        Url64, Entropy(3.0), "Microsoft Teams incoming webhooks: office.com/webhook(b2)/<ids>/IncomingWebhook/<32>/<id>"),
    token("github-pat", "GitHub", &["ghp_"], r"ghp_[A-Za-z0-9]{36}", Word, GitHubCrc,
        "ghp_ + 36 whose last 6 are the CRC32 of the 30 before"),
    token("github-oauth", "GitHub", &["gho_"], r"gho_[A-Za-z0-9]{36}", Word, GitHubCrc,
        "gho_ + 36, CRC32-checked"),
    token("github-app-token", "GitHub", &["ghu_", "ghs_"], r"gh[us]_[A-Za-z0-9]{36}", Word,
        GitHubCrc, "ghu_/ghs_ + 36, CRC32-checked"),
    token("github-refresh-token", "GitHub", &["ghr_"], r"ghr_[A-Za-z0-9]{36}", Word, GitHubCrc,
        "ghr_ + 36, CRC32-checked"),
    token("github-fine-grained-pat", "GitHub", &["github_pat_"], r"github_pat_[A-Za-z0-9_]{82}",
        Word, Entropy(3.0), "github_pat_ + 82"),
    token("gitlab-pat", "GitLab", &["glp"],
        r"glpat-[A-Za-z0-9_-]{20,300}(?:\.[0-9a-z]{2}\.?[0-9a-z]{7,9})?", Url64, Entropy(3.0),
        "glpat- + 20 (or a routable token)"),
    token("gitlab-runner-authentication-token", "GitLab", &["glrt-"],
        r"glrt-[A-Za-z0-9_-]{20,300}(?:\.[0-9a-z]{2}\.?[0-9a-z]{7,9})?", Url64, Entropy(3.0),
        "glrt- + 20 or more"),
    token("gitlab-ptt", "GitLab", &["glp"], r"glptt-[0-9a-f]{40}", Url64, Entropy(3.0),
        "pipeline trigger tokens: glptt- + 40 hex"),
    token("gitlab-deploy-token", "GitLab", &["gldt-"], r"gldt-[A-Za-z0-9_-]{20,64}", Url64,
        Entropy(3.0), "gldt- + 20"),
    token("gitlab-feed-token", "GitLab", &["glf"], r"glft-[A-Za-z0-9_-]{20,64}", Url64,
        Entropy(3.0), "glft- + 20"),
    token("gitlab-feature-flag-client-token", "GitLab", &["glf"],
        r"glffct-[A-Za-z0-9_-]{20,64}", Url64, Entropy(3.0), "glffct- + 20"),
    token("gitlab-incoming-mail-token", "GitLab", NAMED_ONLY, r"glimt-[A-Za-z0-9_-]{25,64}",
        Url64, Entropy(3.0), "glimt- + 25"),
    token("gitlab-kubernetes-agent-token", "GitLab", &["glagent-"],
        r"glagent-[A-Za-z0-9_-]{50,100}", Url64, Entropy(3.0), "glagent- + 50"),
    token("gitlab-oauth-app-secret", "GitLab", &["gloas-"], r"gloas-[A-Za-z0-9_-]{64}", Url64,
        Entropy(3.0), "gloas- + 64"),
    token("gitlab-scim-token", "GitLab", NAMED_ONLY, r"glsoat-[A-Za-z0-9_-]{20,64}", Url64,
        Entropy(3.0), "glsoat- + 20"),
    token("gitlab-cicd-job-token", "GitLab", NAMED_ONLY,
        r"glcbt-[A-Za-z0-9]{1,5}_[A-Za-z0-9_-]{20,64}", Url64, Entropy(3.0), "glcbt- tokens"),
    token("gitlab-rrt", "GitLab", &["GR1348941"], r"GR1348941[A-Za-z0-9_-]{20}", Url64,
        Entropy(3.0), "runner registration tokens: GR1348941 + 20"),
    token("slack-bot-token", "Slack", SLACK, r"xoxb-[0-9]{10,13}-[0-9]{10,13}-[A-Za-z0-9-]{12,64}",
        Url64, Entropy(3.0), "xoxb-<team>-<bot>-<secret>"),
    token("slack-user-token", "Slack", SLACK,
        r"xox[pe](?:-[0-9]{10,13}){3}-[A-Za-z0-9-]{28,34}", Url64, Entropy(3.0),
        "xoxp-/xoxe- user tokens"),
    token("slack-app-token", "Slack", &["xapp-"], r"(?i:xapp)-[0-9]-[A-Z0-9]+-[0-9]+-[a-z0-9]+",
        Word, Entropy(3.0), "xapp-1-... app-level tokens"),
    token("slack-config-access-token", "Slack", SLACK,
        r"(?i:xoxe\.xox[bp]-[0-9]-[A-Z0-9]{155,170})", Word, Entropy(3.0),
        "xoxe.xoxb-/xoxe.xoxp- configuration tokens"),
    token("slack-config-refresh-token", "Slack", SLACK, r"(?i:xoxe-[0-9]-[A-Z0-9]{140,150})",
        Word, Entropy(3.0), "xoxe-1-... configuration refresh tokens"),
    token("slack-legacy-bot-token", "Slack", SLACK, r"xoxb-[0-9]{8,14}-[A-Za-z0-9]{18,26}",
        Word, Entropy(3.0), "legacy bot tokens"),
    token("slack-legacy-workspace-token", "Slack", SLACK,
        r"xox[ar]-(?:[0-9]-)?[0-9A-Za-z]{8,48}(?:-[0-9A-Za-z]{8,48}){0,4}", Word, Entropy(3.0),
        "legacy workspace tokens"),
    token("slack-legacy-token", "Slack", SLACK,
        r"xox[os]-[0-9]+-[0-9]+-[0-9]+-[a-fA-F0-9]+", Word, Entropy(3.0), "legacy tokens"),
    token("slack-bot-token", "Slack", SLACK,
        r"xoxb-(?:[0-9]{1,3}-)?[0-9A-Za-z]{6,15}-[0-9A-Za-z]{6,15}-[0-9A-Za-z-]{6,66}", Url64, Mixed,
        "other xoxb- shapes: three groups of letters and digits"),
    token("slack-user-token", "Slack", SLACK,
        r"xox[pe]-(?:[0-9]{1,3}-)?[0-9A-Za-z]{6,15}-[0-9A-Za-z]{6,15}-[0-9A-Za-z-]{6,66}", Url64, Mixed,
        "other xoxp-/xoxe- shapes"),
    scanner("slack-webhook-url", "Slack", &["hooks.slack.com/"], false, context::slack_webhook,
        "hooks.slack.com/services/... (the URL is the credential)"),
    Detector { samples: STRIPE_SAMPLES, ..token("stripe-access-token", "Stripe", &["sk_", "rk_"],
        r"[sr]k_(?:live|test|prod)_[A-Za-z0-9]{10,247}", Word, Entropy(3.0),
        "sk_/rk_ + live/test/prod + 10 or more (Stripe's documented test key is allowed)") },
    token("stripe-webhook-secret", "Stripe", &["whsec_"], r"whsec_[A-Za-z0-9+/=]{32,64}", Base64,
        Entropy(3.5), "webhook signing secrets: whsec_ + 32"),
    token("twilio-api-key", "Twilio", NAMED_ONLY, r"SK[0-9a-fA-F]{32}", Word, Entropy(3.0),
        "Twilio API key sids: SK + 32 hex (assigned to a secret-named key)"),
    token("sendgrid-api-token", "SendGrid", &["SG."], r"SG\.(?:[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}|[A-Za-z0-9=_.-]{66})",
        Url64, Entropy(3.0), "SG.<22>.<43> (or 66 of A-Z a-z 0-9 = _ . -)"),
    token("npm-access-token", "npm", &["npm_"], r"npm_[A-Za-z0-9]{36}", Word, NpmCrc,
        "npm_ + 36 whose last 6 are the CRC32 of the 30 before"),
    token("pypi-upload-token", "PyPI", &["pypi-"], r"pypi-[A-Za-z0-9_-]{50,1000}", Url64,
        PyPiMacaroon, "pypi- + a macaroon whose location is pypi.org or test.pypi.org"),
    token("dockerhub-personal-access-token", "Docker Hub", &["dckr_"],
        r"dckr_pat_[A-Za-z0-9_-]{27,40}", Url64, Entropy(3.0), "dckr_pat_ + 27"),
    token("dockerhub-organization-access-token", "Docker Hub", &["dckr_"],
        r"dckr_oat_[A-Za-z0-9_-]{32,40}", Url64, Entropy(3.0), "dckr_oat_ + 32"),
    token("huggingface-access-token", "Hugging Face", &["hf_"], r"hf_[A-Za-z]{34}", Word, Cased,
        "hf_ + 34 letters of both cases"),
    token("huggingface-organization-api-token", "Hugging Face", &["api_org_"],
        r"api_org_[A-Za-z]{34}", Word, Cased, "api_org_ + 34 letters"),
    token("anthropic-admin-api-key", "Anthropic", &["sk-"], r"sk-ant-admin01-[A-Za-z0-9_-]{93}AA",
        Url64, Exact, "sk-ant-admin01- + 93 + AA, the exact shape"),
    token("anthropic-api-key", "Anthropic", &["sk-"], r"sk-ant-api03-[A-Za-z0-9_-]{93}AA",
        Url64, Exact, "sk-ant-api03- + 93 + AA, the exact shape"),
    token("anthropic-admin-api-key", "Anthropic", &["sk-"],
        r"sk-ant-admin[0-9]{2}-[A-Za-z0-9_-]{32,200}", Url64, Mixed, "sk-ant-admin01-..."),
    token("anthropic-api-key", "Anthropic", &["sk-"], r"sk-ant-(?:api[0-9]{2}-)?[A-Za-z0-9_-]{32,200}",
        Url64, Mixed, "sk-ant-api03-..."),
    token("openrouter-api-key", "OpenRouter", &["sk-"], r"sk-or-v[0-9]-[0-9a-f]{64}", Url64,
        Entropy(3.0), "sk-or-v1- + 64 hex"),
    token("deepseek-api-key", "DeepSeek", &["sk-"], r"sk-[0-9a-f]{32}", Url64, Entropy(3.0),
        "sk- + 32 hex"),
    token("openai-api-key", "OpenAI", &["sk-"],
        r"sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{40,400}", Url64, OpenAi,
        "sk- (sk-proj-, sk-svcacct-, sk-admin-) + 40 or more with T3BlbkFJ or mixed case"),
    token("groq-api-key", "Groq", &["gsk_"], r"gsk_[A-Za-z0-9]{52}", Word, Mixed, "gsk_ + 52"),
    token("replicate-api-token", "Replicate", &["r8_"], r"r8_[A-Za-z0-9]{37}", Word, Mixed,
        "r8_ + 37"),
    token("perplexity-api-key", "Perplexity", &["pplx-"], r"pplx-[A-Za-z0-9]{48}", Word, Mixed,
        "pplx- + 48"),
    token("xai-api-key", "xAI", &["xai-"], r"xai-[A-Za-z0-9_-]{70,120}", Url64, Mixed,
        "xai- + 70 to 120"),
    token("togetherai-api-key", "Together", &["tgp_v1_"], r"tgp_v1_[A-Za-z0-9_-]{43}", Url64,
        Mixed, "tgp_v1_ + 43"),
    token("notion-api-token", "Notion", &["ntn_"], r"ntn_[0-9]{11}[A-Za-z0-9]{35}", Word, Mixed,
        "ntn_ + 11 digits + 35"),
    Detector { shape: Shape::Token { pattern: r"secret_[A-Za-z0-9]{43}", back: 1, stop: Word, verify: Mixed },
        ..token("notion-api-token", "Notion", &["ecret"], "", Word, Mixed,
        "secret_ + 43 (integration tokens before ntn_)") },
    token("linear-api-key", "Linear", &["lin_"], r"lin_api_[A-Za-z0-9]{40}", Word, Entropy(3.0),
        "lin_api_ + 40"),
    token("linear-oauth-token", "Linear", &["lin_"], r"lin_oauth_[0-9a-f]{64}", Word,
        Entropy(3.0), "lin_oauth_ + 64 hex"),
];

/// The scanners that read context (last: a secret-named assignment is the least specific).
#[rustfmt::skip]
pub(crate) static CONTEXT: &[Detector] = &[
    scanner("discord-webhook-url", "Discord", &["/api/webhooks/"], false, context::discord_webhook,
        "discord.com/api/webhooks/<id>/<68> (the URL is the credential)"),
    scanner("telegram-bot-api-token", "Telegram", &[":AA"], false, context::telegram,
        "<bot id>:AA + 33"),
    scanner("jwt", "JWT", &["eyJ"], false, context::jwt,
        "three to five base64url parts whose first decodes to a JSON header with alg"),
    scanner("authorization-header", "Authorization headers", &["uthorization", "UTHORIZATION"],
        false, context::authorization,
        "Bearer/Token/Bot/Api-Token credentials, Basic base64(user:password)"),
    scanner("netrc-credentials", "credentials in URLs", &["machine"], false, curl::netrc,
        ".netrc entries: machine <host> login <user> password <password> (the password is the match)"),
    scanner("curl-auth-user", "Authorization headers", &["curl"], false, curl::scan,
        "curl -u/--user user:password, and curl -H with a credential header (Api-Token:, X-Api-Key:)"),
    scanner("url-credentials", "credentials in URLs", &["://"], false, context::url_credentials,
        "scheme://user:password@host (any scheme: https, ftp, amqp, redis, postgres, ...)"),
    scanner("cohere-api-token", "Cohere", &["ohere", "OHERE"], false, context::cohere,
        "cohere in a name, an assignment, then 40 letters and digits (gitleaks' keyword context; CO_API_KEY is a secret-named assignment)"),
    scanner("generic-api-key", "secret-named assignments", generic::ANCHORS, false, generic::scan,
        "a secret-named key assigned a random-looking literal, in code, config, env files, connection strings"),
];
