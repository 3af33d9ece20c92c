//! Near-misses, per family: text shaped almost like a secret (a character short, a checksum
//! that fails, a placeholder, a published sample, a public identifier) that must not match.

use super::*;

fn tokens(r: &mut Rng, v: &mut Vec<Case>) {
    let begin = format!("-----{} RSA PRIVATE KEY-----", "BEGIN");
    let end = format!("-----{} RSA PRIVATE KEY-----", "END");
    let f = "private keys";
    v.push(near(f, format!("{begin}\n...\n{end}")));
    v.push(near(f, format!("{begin}\n{}\n{end}", "A".repeat(64))));
    v.push(near(f, format!("{begin}\n<paste your key here>\n{end}")));
    v.push(near(
        f,
        format!(
            "-----{} CERTIFICATE-----\n{}\n-----END CERTIFICATE-----",
            "BEGIN",
            pem_body(r, 4, "\n")
        ),
    ));
    let f = "AWS";
    v.push(near(f, format!("AKIA{}", r.pick(BASE32, 15))));
    v.push(near(f, format!("MAKIA{}", r.pick(BASE32, 16))));
    v.push(near(f, "aws_access_key_id = AKIAXXXXXXXXXXXXXXXX"));
    v.push(near(
        f,
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    ));
    let f = "GCP/Google";
    v.push(near(
        f,
        format!(
            "key={}{}{}",
            "AIzaSy", "ASWm6HmTMdYWpg", "MnjRBjxcQ9CKctWmLd4"
        ),
    ));
    v.push(near(f, format!("AIza{}", r.mixed(&url64(), 30))));
    v.push(near(f, "api_key: AIzaXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"));
    v.push(near(f, "the ya29. prefix marks an OAuth access token"));
    let f = "Azure";
    v.push(near(f, "The Q~ operator is not a secret, nor is 8Q~short."));
    v.push(near(f, "AccountKey=YOUR_STORAGE_ACCOUNT_KEY;"));
    v.push(near(
        f,
        format!(
            "tenant_id = \"{}-{}-{}-{}-{}\"",
            r.pick(HEX, 8),
            r.pick(HEX, 4),
            r.pick(HEX, 4),
            r.pick(HEX, 4),
            r.pick(HEX, 12)
        ),
    ));
    let f = "GitHub";
    // one character short: not a token, whatever its checksum
    v.push(near(f, format!("ghp_{}", &crc_body(r, false)[1..])));
    v.push(near(f, format!("gho_{}Q", crc_body(r, false))));
    v.push(near(f, format!("ghp_{}", r.mixed(&alnum(), 35))));
    v.push(near(f, "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"));
    tokens_2(r, v);
}

fn tokens_2(r: &mut Rng, v: &mut Vec<Case>) {
    let letters = format!("{UPPER}{LOWER}");
    let f = "GitLab";
    v.push(near(f, "glpat-xxxxxxxxxxxxxxxxxxxx"));
    v.push(near(f, format!("glpat-{}", r.mixed(&alnum(), 12))));
    v.push(near(f, "glrt-your-runner-token-here"));
    let f = "Slack";
    v.push(near(f, "xoxb-your-bot-token"));
    v.push(near(
        f,
        "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
    ));
    v.push(near(f, format!("xoxb-{}", r.pick(DIGITS, 12))));
    let f = "Stripe";
    v.push(near(
        f,
        format!(
            "stripe.api_key = '{}{}'",
            "sk_test_", "4eC39HqLyjWDarjtT1zdp7dc"
        ),
    ));
    v.push(near(f, format!("pk_live_{}", r.mixed(&alnum(), 24))));
    v.push(near(f, "sk_live_xxxxxxxxxxxxxxxxxxxxxxxx"));
    let f = "Twilio";
    v.push(near(f, format!("TWILIO_ACCOUNT_SID=AC{}", r.pick(HEX, 32))));
    v.push(near(f, format!("SK{}", r.pick(HEX, 31))));
    v.push(near(f, format!("TASK{}", r.pick(HEX, 32))));
    let f = "SendGrid";
    v.push(near(
        f,
        "SG.xxxxxxxxxxxxxxxxxxxxxx.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    ));
    v.push(near(f, format!("SG.{}", r.mixed(&url64(), 22))));
    let f = "npm";
    v.push(near(
        f,
        format!("the token npm_{}_x expired", crc_body(r, false)),
    ));
    v.push(near(f, format!("npm_{}", r.mixed(&alnum(), 35))));
    v.push(near(f, "npm_config_cache=/tmp/.npm"));
    let f = "PyPI";
    v.push(near(f, format!("pypi-{}", r.mixed(&url64(), 120))));
    v.push(near(
        f,
        format!("uploaded with {} yesterday", pypi(r, "evil.example")),
    ));
    v.push(near(f, "pypi-AgEIcHlwaS5vcmc"));
    let f = "Docker Hub";
    v.push(near(f, "dckr_pat_xxxxxxxxxxxxxxxxxxxxxxxxxxx"));
    v.push(near(f, format!("dckr_pat_{}", r.mixed(&url64(), 12))));
    let f = "Hugging Face";
    v.push(near(f, "from huggingface_hub import hf_hub_download"));
    v.push(near(f, format!("hf_{}", r.pick(LOWER, 34))));
    v.push(near(f, format!("hf_{}", r.mixed(&letters, 33))));
    v.push(near(f, "api_org_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"));
}

fn providers(r: &mut Rng, v: &mut Vec<Case>) {
    let f = "OpenAI";
    v.push(near(
        f,
        "pip install scikit-learn; import sklearn; sk-learn is its old name",
    ));
    v.push(near(
        f,
        "OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    ));
    v.push(near(
        f,
        "sk-this-is-not-a-real-key-it-is-only-documentation-text",
    ));
    let f = "Anthropic";
    v.push(near(
        f,
        "ANTHROPIC_API_KEY=sk-ant-api03-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    ));
    v.push(near(f, format!("sk-ant-{}", r.mixed(&alnum(), 12))));
    let f = "Cohere";
    v.push(near(f, "cohere_model = \"command-r-plus-08-2024\""));
    v.push(near(f, "COHERE_API_KEY=your-cohere-api-key"));
    let f = "Mistral";
    v.push(near(f, "mistral_model = \"mistral-large-latest\""));
    v.push(near(f, "MISTRAL_API_KEY=<your-mistral-key>"));
    let f = "Groq";
    v.push(near(
        f,
        "gsk_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    ));
    v.push(near(f, format!("gsk_{}", r.mixed(&alnum(), 40))));
    let f = "Replicate";
    v.push(near(f, format!("r8_{}", r.mixed(&alnum(), 20))));
    v.push(near(f, "r8_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"));
    let f = "Perplexity";
    v.push(near(f, "model = \"pplx-70b-online\""));
    v.push(near(
        f,
        "pplx-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    ));
    let f = "xAI";
    v.push(near(f, "model = \"xai-grok-beta\""));
    providers_2(r, v);
}

fn providers_2(r: &mut Rng, v: &mut Vec<Case>) {
    let f = "xAI";
    v.push(near(f, format!("xai-{}", "x".repeat(80))));
    let f = "OpenRouter";
    v.push(near(f, format!("sk-or-v1-{}", "0".repeat(64))));
    v.push(near(f, format!("sk-or-v1-{}", r.pick(HEX, 20))));
    let f = "DeepSeek";
    v.push(near(f, "sk-0123456789abcdef0123456789abcdef"));
    v.push(near(f, format!("sk-{}", r.pick(HEX, 31))));
    let f = "Together";
    v.push(near(
        f,
        "together_model = \"meta-llama/Llama-3-70b-chat-hf\"",
    ));
    v.push(near(
        f,
        "tgp_v1_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    ));
    let f = "Notion";
    v.push(near(
        f,
        "secret_santa_assignments_for_the_winter_party_2024",
    ));
    v.push(near(f, format!("ntn_{}", r.pick(DIGITS, 11))));
    let f = "Linear";
    v.push(near(f, "lin_api_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"));
    v.push(near(f, "linear_team_key = \"ENG\""));
    let f = "Discord";
    v.push(near(f, format!("DISCORD_CLIENT_ID={}", r.pick(DIGITS, 18))));
    v.push(near(
        f,
        format!(
            "https://discord.com/api/webhooks/{}/short",
            r.pick(DIGITS, 19)
        ),
    ));
    let f = "Telegram";
    v.push(near(f, format!("12:AA{}", r.mixed(&url64(), 33))));
    v.push(near(
        f,
        format!(
            "TELEGRAM_BOT_TOKEN={}:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            r.pick(DIGITS, 10)
        ),
    ));
}

fn context(r: &mut Rng, v: &mut Vec<Case>) {
    let f = "JWT";
    v.push(near(f, "eyJustkidding.eyJustkidding.signature1234567890"));
    v.push(near(f, "see eyJhbGciOiJIUzI1NiJ9 for the header"));
    let body = b64_encode(br#"{"name":"not a header"}"#, true);
    v.push(near(
        f,
        format!("{body}.{}.{}", r.mixed(&url64(), 30), r.mixed(&url64(), 30)),
    ));
    let f = "credentials in URLs";
    v.push(near(f, "postgres://user:password@localhost:5432/db"));
    v.push(near(f, "https://user:${PASSWORD}@host.example.com/"));
    v.push(near(f, "git@github.com:owner/repo.git"));
    v.push(near(f, "redis://foo:bar@somehost:6379/"));
    let f = "Authorization headers";
    v.push(near(f, "Authorization: Bearer <token>"));
    v.push(near(f, "Authorization: Bearer ${API_TOKEN}"));
    v.push(near(f, "Authorization: Basic dXNlcjpwYXNzd29yZA=="));
    v.push(near(f, "Authorization: Token YOUR_API_TOKEN_HERE"));
    let f = "secret-named assignments";
    v.push(near(f, "token_budget = 200000"));
    v.push(near(f, "password = \"********\""));
    v.push(near(f, "api_key = os.environ[\"API_KEY\"]"));
    v.push(near(f, "password = get_password(user, \"Prod#DB!2024\")"));
    v.push(near(
        f,
        format!("csrf_token = \"{}\"", r.mixed(&alnum(), 40)),
    ));
    v.push(near(
        f,
        format!("\"next_page_token\": \"{}\"", r.mixed(&alnum(), 40)),
    ));
    v.push(near(
        f,
        format!("public_key = \"{}\"", r.mixed(&alnum(), 40)),
    ));
    v.push(near(f, "api_key = \"abc123xyz456abc123xyz456\""));
    v.push(near(f, "password: \"${DB_PASSWORD}\""));
    v.push(near(f, "SECRET_KEY=your-secret-key-here"));
    v.push(near(f, "password = \"correct horse battery staple\""));
}

pub(crate) fn near_misses() -> Vec<Case> {
    let r = &mut Rng(0x0BAD_5EED_1234_5678);
    let mut v = Vec::new();
    tokens(r, &mut v);
    providers(r, &mut v);
    context(r, &mut v);
    cohere(&mut v);
    v
}

/// Near-misses of a Cohere key in its keyword context: a git SHA (hex never has the entropy), a
/// placeholder, a run of 41, no assignment, a model name.
fn cohere(v: &mut Vec<Case>) {
    let r = &mut Rng(0xC0_4E4E_0002);
    let f = "Cohere";
    v.push(near(f, format!("\"cohere\": \"{}\"", r.pick(HEX, 40))));
    v.push(near(f, format!("cohere: {}", "x".repeat(40))));
    v.push(near(f, format!("cohere = \"{}\"", r.mixed(&alnum(), 41))));
    v.push(near(f, format!("cohere {}", r.mixed(&alnum(), 40))));
    v.push(near(f, "cohere: command-r-plus-08-2024-and-then-some-more"));
}
