//! Positives with a prefix of their own: cloud, source hosting, chat, payment, package registry
//! and model provider tokens.

use super::*;

fn cloud(r: &mut Rng, v: &mut Vec<Case>) {
    for prefix in ["AKIA", "ASIA", "ABIA", "ACCA", "AKIA"] {
        let key = format!("{prefix}{}", r.pick(BASE32, 16));
        v.push(pos(
            "AWS",
            "aws-access-token",
            "aws_access_key_id = ",
            key,
            "\n",
        ));
    }
    let key = format!("AKIA{}", r.pick(BASE32, 16));
    v.push(pos(
        "AWS",
        "aws-access-token",
        r#"{"content": "my key is\n"#,
        key,
        r#"\nthanks"}"#,
    ));
    let key = format!("ABSK{}", r.mixed(&b64(), 132));
    v.push(pos(
        "AWS",
        "aws-amazon-bedrock-api-key-long-lived",
        "AWS_BEARER_TOKEN_BEDROCK=",
        key,
        "\n",
    ));
    for _ in 0..3 {
        let key = format!("AIza{}", r.mixed(&url64(), 35));
        v.push(pos(
            "GCP/Google",
            "gcp-api-key",
            "https://maps.googleapis.com/maps/api/js?key=",
            key,
            "&callback=init",
        ));
    }
    let t = format!("ya29.{}", r.mixed(&url64(), 150));
    v.push(pos(
        "GCP/Google",
        "gcp-oauth-access-token",
        "access_token: ",
        t,
        "\n",
    ));
    cloud_2(r, v);
}

fn cloud_2(r: &mut Rng, v: &mut Vec<Case>) {
    let t = format!("GOCSPX-{}", r.mixed(&url64(), 28));
    v.push(pos(
        "GCP/Google",
        "gcp-oauth-client-secret",
        "\"client_secret\": \"",
        t,
        "\"",
    ));
    for _ in 0..2 {
        let t = format!(
            "{}{}Q~{}",
            r.mixed(&alnum(), 3),
            r.pick(DIGITS, 1),
            r.mixed(&format!("{}_~.-", alnum()), 34)
        );
        v.push(pos(
            "Azure",
            "azure-ad-client-secret",
            "AZURE_CLIENT_SECRET=",
            t,
            "\n",
        ));
    }
    let key = format!("{}==", r.mixed(&b64(), 86));
    v.push(pos(
        "Azure",
        "azure-storage-account-key",
        "DefaultEndpointsProtocol=https;AccountName=packstore;AccountKey=",
        key,
        ";EndpointSuffix=core.windows.net",
    ));
    let key = format!("{}=", r.mixed(&b64(), 43));
    v.push(pos(
        "Azure",
        "azure-storage-account-key",
        "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=",
        key,
        "\n",
    ));
}

/// Checksums that do not hold: still tokens of the exact shape (the evidence differs).
fn unverified(r: &mut Rng, v: &mut Vec<Case>) {
    let key = format!("ghp_{}", crc_body(r, true));
    v.push(pos(
        "GitHub",
        "github-pat",
        "made up for a test: ",
        key,
        "\n",
    ));
    let key = format!("npm_{}", crc_body(r, true).to_lowercase());
    let npmrc = "//registry.npmjs.org/:_authToken=";
    v.push(pos("npm", "npm-access-token", npmrc, key, "\n"));
}

fn hosting(r: &mut Rng, v: &mut Vec<Case>) {
    for (prefix, kind) in [
        ("ghp_", "github-pat"),
        ("gho_", "github-oauth"),
        ("ghu_", "github-app-token"),
        ("ghs_", "github-app-token"),
        ("ghr_", "github-refresh-token"),
    ] {
        let key = format!("{prefix}{}", crc_body(r, false));
        v.push(pos(
            "GitHub",
            kind,
            "git clone https://x-access-token@github.com; export T=",
            key,
            "; done",
        ));
    }
    let key = format!("ghp_{}", crc_body(r, false));
    v.push(pos("GitHub", "github-pat", "GITHUB_TOKEN=\"", key, "\""));
    unverified(r, v);
    for _ in 0..2 {
        let key = format!(
            "github_pat_{}_{}",
            r.mixed(&alnum(), 22),
            r.mixed(&alnum(), 59)
        );
        v.push(pos(
            "GitHub",
            "github-fine-grained-pat",
            "token: ",
            key,
            "\n",
        ));
    }
    let lab: [(&str, &str, String); 8] = [
        ("glpat-", "gitlab-pat", r.mixed(&url64(), 20)),
        (
            "glpat-",
            "gitlab-pat",
            format!(
                "{}.01.{}",
                r.mixed(&url64(), 36),
                r.pick(&format!("{LOWER}{DIGITS}"), 9)
            ),
        ),
        (
            "glrt-",
            "gitlab-runner-authentication-token",
            r.mixed(&url64(), 20),
        ),
        ("glptt-", "gitlab-ptt", r.pick(HEX, 40)),
        ("gldt-", "gitlab-deploy-token", r.mixed(&url64(), 20)),
        ("gloas-", "gitlab-oauth-app-secret", r.mixed(&url64(), 64)),
        ("glft-", "gitlab-feed-token", r.mixed(&url64(), 20)),
        ("GR1348941", "gitlab-rrt", r.mixed(&url64(), 20)),
    ];
    for (prefix, kind, body) in lab {
        v.push(pos(
            "GitLab",
            kind,
            "CI_TOKEN=",
            format!("{prefix}{body}"),
            "\n",
        ));
    }
}

fn slack(r: &mut Rng, v: &mut Vec<Case>) {
    const F: &str = "Slack";
    let t = format!(
        "xoxb-{}-{}-{}",
        r.pick(DIGITS, 12),
        r.pick(DIGITS, 13),
        r.mixed(&alnum(), 24)
    );
    v.push(pos(F, "slack-bot-token", "SLACK=", t, "\n"));
    let t = format!(
        "xoxp-{}-{}-{}-{}",
        r.pick(DIGITS, 12),
        r.pick(DIGITS, 12),
        r.pick(DIGITS, 13),
        r.pick(HEX, 32)
    );
    v.push(pos(F, "slack-user-token", "slack: ", t, " (user)"));
    let t = format!(
        "xapp-1-A{}-{}-{}",
        r.pick(&format!("{UPPER}{DIGITS}"), 10),
        r.pick(DIGITS, 13),
        r.pick(HEX, 64)
    );
    v.push(pos(F, "slack-app-token", "", t, ""));
    let t = format!("xoxe.xoxp-1-{}", r.mixed(&format!("{UPPER}{DIGITS}"), 164));
    v.push(pos(F, "slack-config-access-token", "cfg ", t, "\n"));
    let t = format!("xoxe-1-{}", r.mixed(&format!("{UPPER}{DIGITS}"), 146));
    v.push(pos(F, "slack-config-refresh-token", "cfg ", t, "\n"));
    let t = format!("xoxb-{}-{}", r.pick(DIGITS, 9), r.mixed(&alnum(), 24));
    v.push(pos(F, "slack-legacy-bot-token", "bot ", t, "\n"));
    let t = format!("xoxa-2-{}", r.mixed(&alnum(), 40));
    v.push(pos(F, "slack-legacy-workspace-token", "ws ", t, "\n"));
    let t = format!(
        "xoxs-{}-{}-{}-{}",
        r.pick(DIGITS, 10),
        r.pick(DIGITS, 11),
        r.pick(DIGITS, 12),
        r.pick(HEX, 64)
    );
    v.push(pos(F, "slack-legacy-token", "old ", t, "\n"));
    let t = format!(
        "hooks.slack.com/services/T{}/B{}/{}",
        r.pick(&format!("{UPPER}{DIGITS}"), 8),
        r.pick(&format!("{UPPER}{DIGITS}"), 10),
        r.mixed(&alnum(), 24)
    );
    v.push(pos(
        F,
        "slack-webhook-url",
        "post to https://",
        t,
        " on failure",
    ));
}

fn payments_and_registries(r: &mut Rng, v: &mut Vec<Case>) {
    for prefix in ["sk_live_", "sk_test_", "rk_live_"] {
        let key = format!("{prefix}{}", r.mixed(&alnum(), 24));
        v.push(pos(
            "Stripe",
            "stripe-access-token",
            "stripe.api_key = '",
            key,
            "'",
        ));
    }
    let key = format!("sk_live_{}", r.mixed(&alnum(), 99));
    v.push(pos("Stripe", "stripe-access-token", "", key, ""));
    let key = format!("whsec_{}", r.mixed(&alnum(), 32));
    v.push(pos(
        "Stripe",
        "stripe-webhook-secret",
        "STRIPE_WEBHOOK_SECRET=",
        key,
        "\n",
    ));
    let key = format!("SK{}", r.pick(HEX, 32));
    v.push(pos(
        "Twilio",
        "twilio-api-key",
        "TWILIO_API_KEY=",
        key,
        "\n",
    ));
    let key = format!("SG.{}.{}", r.mixed(&url64(), 22), r.mixed(&url64(), 43));
    v.push(pos(
        "SendGrid",
        "sendgrid-api-token",
        "SENDGRID_API_KEY='",
        key,
        "'",
    ));
    let key = format!("SG.{}.{}", r.mixed(&url64(), 22), r.mixed(&url64(), 43));
    v.push(pos(
        "SendGrid",
        "sendgrid-api-token",
        "sg = SendGridAPIClient(\"",
        key,
        "\")",
    ));
    payments_and_registries_2(r, v);
}

fn payments_and_registries_2(r: &mut Rng, v: &mut Vec<Case>) {
    let key = format!("npm_{}", crc_body(r, false));
    v.push(pos(
        "npm",
        "npm-access-token",
        "//registry.npmjs.org/:_authToken=",
        key,
        "\n",
    ));
    let key = format!("npm_{}", crc_body(r, false));
    v.push(pos("npm", "npm-access-token", "NPM_TOKEN: ", key, "\n"));
    let key = pypi(r, "pypi.org");
    v.push(pos(
        "PyPI",
        "pypi-upload-token",
        "[pypi]\nusername = __token__\npassword = ",
        key,
        "\n",
    ));
    let key = pypi(r, "test.pypi.org");
    v.push(pos(
        "PyPI",
        "pypi-upload-token",
        "TWINE_PASSWORD=",
        key,
        "\n",
    ));
    let key = format!("dckr_pat_{}", r.mixed(&url64(), 27));
    v.push(pos(
        "Docker Hub",
        "dockerhub-personal-access-token",
        "docker login -u ada -p ",
        key,
        "\n",
    ));
    let key = format!("dckr_oat_{}", r.mixed(&url64(), 32));
    v.push(pos(
        "Docker Hub",
        "dockerhub-organization-access-token",
        "DOCKERHUB_TOKEN=",
        key,
        "\n",
    ));
}

fn chat(r: &mut Rng, v: &mut Vec<Case>) {
    let hook = format!("{}/{}", r.pick(DIGITS, 19), r.mixed(&url64(), 68));
    v.push(pos(
        "Discord",
        "discord-webhook-url",
        "https://discord.com/api/webhooks/",
        hook,
        "\n",
    ));
    let t = format!("{}:AA{}", r.pick(DIGITS, 10), r.mixed(&url64(), 33));
    v.push(pos(
        "Telegram",
        "telegram-bot-api-token",
        "TELEGRAM_BOT_TOKEN=",
        t.clone(),
        "\n",
    ));
    v.push(pos(
        "Telegram",
        "telegram-bot-api-token",
        "https://api.telegram.org/bot",
        t,
        "/getMe",
    ));
}

pub(crate) fn positives() -> Vec<Case> {
    let r = &mut Rng(0x5151_7A7A_0F0F_1234);
    let mut v = Vec::new();
    cloud(r, &mut v);
    hosting(r, &mut v);
    slack(r, &mut v);
    payments_and_registries(r, &mut v);
    super::models::models(r, &mut v);
    chat(r, &mut v);
    v
}
