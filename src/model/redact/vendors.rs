//! The vendors a pack could leak through a transcript of a coding session, beyond the families
//! with scanners of their own: one row per token kind, as data (the kind, its family, the
//! anchor the search finds it by, the pattern from the vendor's documented format, the
//! evidence it must carry beyond its shape). Positive and negative examples are generated from
//! each row's pattern at run time (`corpus/rows.rs`), so this file holds no secret-shaped
//! string, and a test checks every row's examples; docs/redaction.md's kinds table is generated
//! from the same rows (`tests/it/docs.rs`).

use super::table::Stop::{Base64, Url64, Word};
use super::table::Verify::{Entropy, Exact, Mixed};
use super::table::{Detector, Shape, token};

/// Written one row to a few lines, as a table reads.
#[rustfmt::skip]
pub(crate) static VENDORS: &[Detector] = &[
    // cloud
    token("alibaba-access-key-id", "Alibaba Cloud", &["LTAI"], r"LTAI[A-Za-z0-9]{20}", Word, Mixed,
        "LTAI + 20"),
    token("digitalocean-pat", "DigitalOcean", &["dop_v1_"], r"dop_v1_[a-f0-9]{64}", Word, Entropy(3.0),
        "dop_v1_ + 64 hex"),
    token("digitalocean-access-token", "DigitalOcean", &["doo_v1_"], r"doo_v1_[a-f0-9]{64}", Word,
        Entropy(3.0), "doo_v1_ + 64 hex"),
    token("digitalocean-refresh-token", "DigitalOcean", &["dor_v1_"], r"dor_v1_[a-f0-9]{64}", Word,
        Entropy(3.0), "dor_v1_ + 64 hex"),
    token("heroku-api-key-v2", "Heroku", &["HRKU-AA"], r"HRKU-AA[0-9a-zA-Z_-]{58}", Url64, Entropy(3.5),
        "HRKU-AA + 58"),
    token("flyio-access-token", "Fly.io", &["fo1_"], r"fo1_[A-Za-z0-9_-]{43}", Url64, Entropy(3.5),
        "fo1_ + 43"),
    token("vault-service-token", "HashiCorp", &["hvs."], r"hvs\.[A-Za-z0-9_-]{90,120}", Url64, Entropy(3.5),
        "Vault service tokens: hvs. + 90 to 120"),
    Detector { shape: Shape::Token { pattern: r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9=_-]{60,70}", back: 14,
        stop: Url64, verify: Entropy(3.5) }, ..token("hashicorp-tf-api-token", "HashiCorp", &[".atlasv1."],
        "", Url64, Entropy(3.5), "Terraform Cloud tokens: 14 + .atlasv1. + 60 to 70") },
    token("pulumi-api-token", "Pulumi", &["pul-"], r"pul-[a-f0-9]{40}", Word, Entropy(3.0), "pul- + 40 hex"),
    token("doppler-api-token", "Doppler", &["dp.pt."], r"dp\.pt\.[A-Za-z0-9]{43}", Word, Mixed,
        "dp.pt. + 43"),
    token("openshift-user-token", "OpenShift", &["sha256~"], r"sha256~[A-Za-z0-9_-]{43}", Url64, Mixed,
        "sha256~ + 43"),
    // source hosts, CI and package registries
    token("atlassian-api-token", "Atlassian", &["ATATT3"], r"ATATT3[A-Za-z0-9_=-]{186}", Url64, Entropy(3.5),
        "ATATT3 + 186"),
    token("sourcegraph-access-token", "Sourcegraph", &["sgp_"], r"sgp_(?:[a-f0-9]{16}|local)_[a-f0-9]{40}",
        Word, Entropy(3.0), "sgp_ + 16 hex or local + _ + 40 hex"),
    token("sonarqube-user-token", "SonarQube", &["squ_"], r"squ_[a-f0-9]{40}", Word, Entropy(3.0),
        "squ_ + 40 hex"),
    token("sonarqube-project-token", "SonarQube", &["sqp_"], r"sqp_[a-f0-9]{40}", Word, Entropy(3.0),
        "sqp_ + 40 hex"),
    token("rubygems-api-token", "RubyGems", &["rubygems_"], r"rubygems_[a-f0-9]{48}", Word, Entropy(3.0),
        "rubygems_ + 48 hex"),
    token("clojars-api-token", "Clojars", &["CLOJARS_"], r"CLOJARS_[a-z0-9]{60}", Word, Entropy(3.0),
        "CLOJARS_ + 60"),
    token("jfrog-api-key", "JFrog", &["AKCp"], r"AKCp[A-Za-z0-9]{69}", Word, Mixed, "AKCp + 69"),
    token("prefect-api-token", "Prefect", &["pnu_"], r"pnu_[A-Za-z0-9]{36}", Word, Mixed, "pnu_ + 36"),
    token("frameio-api-token", "Frame.io", &["fio-u-"], r"fio-u-[A-Za-z0-9_=-]{64}", Url64, Entropy(3.5),
        "fio-u- + 64"),
    token("infracost-api-token", "Infracost", &["ico-"], r"ico-[A-Za-z0-9]{32}", Word, Mixed, "ico- + 32"),
    // databases and their hosts
    token("planetscale-api-token", "PlanetScale", &["pscale_"], r"pscale_tkn_[A-Za-z0-9=._-]{32,64}", Url64,
        Entropy(3.5), "pscale_tkn_ + 32 to 64"),
    token("planetscale-password", "PlanetScale", &["pscale_"], r"pscale_pw_[A-Za-z0-9=._-]{32,64}", Url64,
        Entropy(3.5), "pscale_pw_ + 32 to 64"),
    token("planetscale-oauth-token", "PlanetScale", &["pscale_"], r"pscale_oauth_[A-Za-z0-9=._-]{32,64}",
        Url64, Entropy(3.5), "pscale_oauth_ + 32 to 64"),
    token("supabase-access-token", "Supabase", &["sbp_"], r"sbp_[a-f0-9]{40}", Word, Entropy(3.0),
        "sbp_ + 40 hex"),
    token("neon-api-key", "Neon", &["napi_"], r"napi_[a-z0-9]{64}", Word, Entropy(3.5), "napi_ + 64"),
    token("databricks-api-token", "Databricks", &["dapi"], r"dapi[a-f0-9]{32}(?:-[0-9])?", Word, Entropy(3.0),
        "dapi + 32 hex"),
    // payment
    token("square-access-token", "Square", &["sq0", "EAAA"], r"(?:EAAA|sq0atp-)[A-Za-z0-9_-]{22,60}",
        Url64, Mixed, "EAAA or sq0atp- + 22 to 60"),
    token("square-secret", "Square", &["sq0"], r"sq0csp-[A-Za-z0-9_-]{43}", Url64, Mixed,
        "sq0csp- + 43"),
    token("shopify-access-token", "Shopify", &["shp"], r"shpat_[a-fA-F0-9]{32}", Word, Entropy(3.0),
        "shpat_ + 32 hex"),
    token("shopify-custom-access-token", "Shopify", &["shp"], r"shpca_[a-fA-F0-9]{32}", Word, Entropy(3.0),
        "shpca_ + 32 hex"),
    token("shopify-private-app-access-token", "Shopify", &["shp"], r"shppa_[a-fA-F0-9]{32}", Word,
        Entropy(3.0), "shppa_ + 32 hex"),
    token("shopify-shared-secret", "Shopify", &["shp"], r"shpss_[a-fA-F0-9]{32}", Word, Entropy(3.0),
        "shpss_ + 32 hex"),
    token("shippo-api-token", "Shippo", &["shippo_"], r"shippo_(?:live|test)_[a-fA-F0-9]{40}", Word,
        Entropy(3.0), "shippo_live_/shippo_test_ + 40 hex"),
    token("easypost-api-token", "EasyPost", &["EZAK"], r"EZAK[A-Za-z0-9]{54}", Word, Mixed, "EZAK + 54"),
    token("razorpay-key-id", "Razorpay", &["rzp_"], r"rzp_(?:live|test)_[A-Za-z0-9]{14}", Word, Mixed,
        "rzp_live_/rzp_test_ + 14"),
    // messaging and mail
    token("sendinblue-api-token", "Brevo", &["xkeysib-"], r"xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}", Word,
        Entropy(3.0), "xkeysib- + 64 hex - 16"),
    // observability
    token("grafana-cloud-api-token", "Grafana", &["glc_"], r"glc_[A-Za-z0-9+/]{32,400}={0,2}", Base64,
        Entropy(3.5), "glc_ + 32 or more"),
    token("grafana-service-account-token", "Grafana", &["glsa_"], r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}",
        Word, Entropy(3.5), "glsa_ + 32 + _ + 8 hex"),
    token("sentry-user-token", "Sentry", &["sntryu_"], r"sntryu_[a-f0-9]{64}", Word, Entropy(3.0),
        "sntryu_ + 64 hex"),
    token("sentry-org-token", "Sentry", &["sntrys_"], r"sntrys_eyJ[A-Za-z0-9+/=_]{50,600}", Base64,
        Entropy(4.0), "sntrys_ + a base64 JSON header and more"),
    token("new-relic-user-api-key", "New Relic", &["NRAK-"], r"NRAK-[A-Z0-9]{27}", Word, Entropy(3.5),
        "NRAK- + 27"),
    token("new-relic-browser-api-token", "New Relic", &["NRJS-"], r"NRJS-[a-f0-9]{19}", Word, Entropy(3.0),
        "NRJS- + 19 hex"),
    token("new-relic-insert-key", "New Relic", &["NRII-"], r"NRII-[A-Za-z0-9-]{32}", Url64, Entropy(3.5),
        "NRII- + 32"),
    token("dynatrace-api-token", "Dynatrace", &["dt0c01."], r"dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}", Word,
        Mixed, "dt0c01. + 24 . 64"),
    token("postman-api-token", "Postman", &["PMAK-"], r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}", Word, Entropy(3.0),
        "PMAK- + 24 hex - 34 hex"),
    token("mongodb-atlas-service-account-secret", "MongoDB Atlas", &["mdb_sa_sk_"], r"mdb_sa_sk_[A-Za-z0-9_-]{40}",
        Url64, Entropy(3.5), "service account secrets: mdb_sa_sk_ + 40"),
    token("twitter-bearer-token", "Twitter/X", &["AAAAAAAAAAAAAAAAAAAAA"], r"A{22}[B-Za-z0-9%][A-Za-z0-9%]{79,99}", Word,
        Entropy(4.0), "app bearer tokens: 22 A + 80 to 100"),
    // AI providers and their tooling
    token("langsmith-api-key", "LangSmith", &["lsv2_"], r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}", Word,
        Entropy(3.0), "lsv2_pt_/lsv2_sk_ + 32 hex _ 10 hex"),
    token("age-secret-key", "age", &["AGE-SECRET-KEY-1"], r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}",
        Word, Exact, "AGE-SECRET-KEY-1 + 58 bech32"),
];
