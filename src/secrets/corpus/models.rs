//! Positives with a prefix of their own: model provider tokens.

use super::*;

pub(super) fn models(r: &mut Rng, v: &mut Vec<Case>) {
    let letters = format!("{UPPER}{LOWER}");
    v.push(pos(
        "Hugging Face",
        "huggingface-access-token",
        "HF_TOKEN=",
        format!("hf_{}", r.mixed(&letters, 34)),
        "\n",
    ));
    v.push(pos(
        "Hugging Face",
        "huggingface-access-token",
        "login(token=\"",
        format!("hf_{}", r.mixed(&letters, 34)),
        "\")",
    ));
    v.push(pos(
        "Hugging Face",
        "huggingface-organization-api-token",
        "",
        format!("api_org_{}", r.mixed(&letters, 34)),
        "\n",
    ));
    let marker = "T3Blbk".to_string() + "FJ";
    let key = format!(
        "sk-{}{marker}{}",
        r.mixed(&alnum(), 20),
        r.mixed(&alnum(), 20)
    );
    v.push(pos(
        "OpenAI",
        "openai-api-key",
        "openai.api_key = \"",
        key,
        "\"",
    ));
    let key = format!(
        "sk-proj-{}{marker}{}",
        r.mixed(&url64(), 74),
        r.mixed(&url64(), 74)
    );
    v.push(pos(
        "OpenAI",
        "openai-api-key",
        "OPENAI_API_KEY=",
        key,
        "\n",
    ));
    v.push(pos(
        "OpenAI",
        "openai-api-key",
        "use ",
        format!("sk-{}", r.mixed(&alnum(), 48)),
        " for now",
    ));
    v.push(pos(
        "OpenAI",
        "openai-api-key",
        "",
        format!("sk-svcacct-{}", r.mixed(&url64(), 120)),
        "",
    ));
    models_2(r, v);
}

fn models_2(r: &mut Rng, v: &mut Vec<Case>) {
    for _ in 0..2 {
        let key = format!("sk-ant-api03-{}AA", r.mixed(&url64(), 93));
        v.push(pos(
            "Anthropic",
            "anthropic-api-key",
            "ANTHROPIC_API_KEY=",
            key,
            "\n",
        ));
    }
    models_3(r, v);
}

fn models_3(r: &mut Rng, v: &mut Vec<Case>) {
    let key = format!("sk-ant-admin01-{}AA", r.mixed(&url64(), 93));
    v.push(pos(
        "Anthropic",
        "anthropic-admin-api-key",
        "admin: ",
        key,
        "\n",
    ));
    let rows: [(&str, &str, &str, String); 8] = [
        (
            "Groq",
            "groq-api-key",
            "GROQ_API_KEY=",
            format!("gsk_{}", r.mixed(&alnum(), 52)),
        ),
        (
            "Replicate",
            "replicate-api-token",
            "REPLICATE_API_TOKEN=",
            format!("r8_{}", r.mixed(&alnum(), 37)),
        ),
        (
            "Perplexity",
            "perplexity-api-key",
            "PPLX_API_KEY=",
            format!("pplx-{}", r.mixed(&alnum(), 48)),
        ),
        (
            "xAI",
            "xai-api-key",
            "XAI_API_KEY=",
            format!("xai-{}", r.mixed(&alnum(), 80)),
        ),
        (
            "OpenRouter",
            "openrouter-api-key",
            "OPENROUTER_API_KEY=",
            format!("sk-or-v1-{}", r.pick(HEX, 64)),
        ),
        (
            "DeepSeek",
            "deepseek-api-key",
            "DEEPSEEK_API_KEY=",
            format!("sk-{}", r.pick(HEX, 32)),
        ),
        (
            "Together",
            "togetherai-api-key",
            "TOGETHER_API_KEY=",
            format!("tgp_v1_{}", r.mixed(&url64(), 43)),
        ),
        (
            "Notion",
            "notion-api-token",
            "NOTION_TOKEN=",
            format!("ntn_{}{}", r.pick(DIGITS, 11), r.mixed(&alnum(), 35)),
        ),
    ];
    for (family, kind, before, key) in rows {
        v.push(pos(family, kind, before, key.clone(), "\n"));
        v.push(pos(family, kind, "client = Client(api_key=\"", key, "\")"));
    }
    v.push(pos(
        "Notion",
        "notion-api-token",
        "notion = Client(auth=\"",
        format!("secret_{}", r.mixed(&alnum(), 43)),
        "\")",
    ));
    v.push(pos(
        "Linear",
        "linear-api-key",
        "LINEAR_API_KEY=",
        format!("lin_api_{}", r.mixed(&alnum(), 40)),
        "\n",
    ));
    models_4(r, v);
}

fn models_4(r: &mut Rng, v: &mut Vec<Case>) {
    v.push(pos(
        "Linear",
        "linear-oauth-token",
        "Authorization: ",
        format!("lin_oauth_{}", r.pick(HEX, 64)),
        "\n",
    ));
}
