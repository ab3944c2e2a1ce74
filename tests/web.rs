//! The web tools' decisions: the fetch state machine (redirects, address
//! checks after resolution, the body cap, content types, encodings,
//! timeouts), the search request and the reading of its replies, and the
//! tool definitions.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::net::IpAddr;

use mcp_switchboard::web::{
    classify, merge_web_tools, web_fetch_tool, web_search_tool, web_tools_metadata, AddressClass,
    FetchAction, FetchOptions, SearchServiceOptions, WebFetch, WebSearch, WebTools,
};
use mcp_switchboard::{validate_arguments, Catalog, SearchOptions, ToolIndex};
use serde_json::{json, Value};

fn ip(s: &str) -> IpAddr {
    s.parse().unwrap()
}

const PUBLIC: &str = "93.184.215.14";

fn headers(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn done(action: FetchAction) -> Value {
    match action {
        FetchAction::Done(text) => serde_json::from_str(&text).expect("result JSON"),
        other => panic!("expected Done, got {other:?}"),
    }
}

fn error_of(action: FetchAction) -> String {
    let v = done(action);
    assert_eq!(v["isError"], true, "{v}");
    v["structuredContent"]["error"]
        .as_str()
        .expect("error")
        .to_string()
}

/// Starts a fetch and answers the lookup with a public address, up to the
/// response.
fn requested(args: Value, options: FetchOptions) -> WebFetch {
    let mut f = WebFetch::new(&args, options);
    match f.start() {
        FetchAction::Resolve { .. } => match f.resolved(&[ip(PUBLIC)]) {
            FetchAction::Request { .. } => {}
            other => panic!("{other:?}"),
        },
        FetchAction::Request { .. } => {}
        other => panic!("{other:?}"),
    }
    f
}

fn page(args: Value, content_type: &str, body: &[u8]) -> Value {
    let mut f = requested(args, FetchOptions::new());
    let h = headers(&[("content-type", content_type)]);
    assert_eq!(f.response(200, &h), FetchAction::Read);
    assert_eq!(f.body(body), FetchAction::Read);
    done(f.end())
}

#[test]
fn redirect_chains_are_followed_and_each_hop_is_checked() {
    let mut f = WebFetch::new(
        &json!({"url": "http://a.example/start"}),
        FetchOptions::new(),
    );
    assert_eq!(
        f.start(),
        FetchAction::Resolve {
            host: "a.example".into(),
            url: "http://a.example/start".into()
        }
    );
    assert!(matches!(
        f.resolved(&[ip(PUBLIC)]),
        FetchAction::Request { port: 80, .. }
    ));
    // absolute, to another host and scheme
    let a = f.response(
        301,
        &headers(&[("Location", "https://b.example/next?x=1#frag")]),
    );
    assert_eq!(
        a,
        FetchAction::Resolve {
            host: "b.example".into(),
            url: "https://b.example/next?x=1#frag".into()
        }
    );
    let FetchAction::Request { url, port, .. } = f.resolved(&[ip("2606:4700::1111")]) else {
        panic!()
    };
    // the fragment is not sent
    assert_eq!((url.as_str(), port), ("https://b.example/next?x=1", 443));
    // relative
    assert!(matches!(
        f.response(302, &headers(&[("location", "../final")])),
        FetchAction::Resolve { url, .. } if url == "https://b.example/final"
    ));
    assert!(matches!(
        f.resolved(&[ip(PUBLIC)]),
        FetchAction::Request { .. }
    ));
    assert_eq!(
        f.response(200, &headers(&[("content-type", "text/plain")])),
        FetchAction::Read
    );
    let _ = f.body(b"plain words");
    let v = done(f.end());
    assert_eq!(v["content"][0]["text"], "plain words");
    let m = &v["structuredContent"]["metadata"];
    assert_eq!(m["url"], "https://b.example/final");
    assert_eq!(m["requestedUrl"], "http://a.example/start");
    assert_eq!(m["format"], "text");
}

#[test]
fn redirects_to_local_addresses_are_refused() {
    // a literal loopback address: refused without a lookup
    let mut f = requested(json!({"url": "https://a.example/"}), FetchOptions::new());
    let e = error_of(f.response(
        302,
        &headers(&[("Location", "http://127.0.0.1:8080/admin")]),
    ));
    assert!(e.contains("127.0.0.1, a loopback address"), "{e}");
    assert!(e.contains("redirect"), "{e}");
    // the numeric forms browsers accept
    for sneaky in [
        "http://2130706433/",
        "http://0x7f.1/",
        "http://[::ffff:127.0.0.1]/",
        "http://[::1]/",
    ] {
        let mut f = requested(json!({"url": "https://a.example/"}), FetchOptions::new());
        let e = error_of(f.response(307, &headers(&[("Location", sneaky)])));
        assert!(e.contains("loopback"), "{sneaky}: {e}");
    }
    // a name that resolves to a private or metadata address
    for (addr, class) in [
        ("10.1.2.3", "private"),
        ("169.254.169.254", "link-local"),
        ("fd00::1", "private"),
        ("100.64.1.1", "shared"),
    ] {
        let mut f = requested(json!({"url": "https://a.example/"}), FetchOptions::new());
        assert!(matches!(
            f.response(308, &headers(&[("Location", "https://evil.example/")])),
            FetchAction::Resolve { .. }
        ));
        let e = error_of(f.resolved(&[ip(addr)]));
        assert!(e.contains(class) && e.contains("evil.example"), "{e}");
    }
    // allowed when private addresses are allowed
    let mut f = WebFetch::new(
        &json!({"url": "http://homey.local/api"}),
        FetchOptions::new().with_allow_private(true),
    );
    let _ = f.start();
    assert!(matches!(
        f.resolved(&[ip("192.168.1.20")]),
        FetchAction::Request { .. }
    ));
    // never the unspecified address, even then
    let mut f = WebFetch::new(
        &json!({"url": "http://0.0.0.0/"}),
        FetchOptions::new().with_allow_private(true),
    );
    assert!(error_of(f.start()).contains("unspecified"));
}

#[test]
fn allowed_hosts_reach_local_addresses_and_nothing_else() {
    let options = FetchOptions::new().with_allowed_hosts([
        " Homey.LOCAL. ",
        "192.168.1.30",
        "::1",
        "not a host",
        "host:8080",
        "[::1]:8123",
        "ha.local:80",
    ]);
    assert_eq!(
        options.allowed_hosts,
        [
            "homey.local",
            "192.168.1.30",
            "::1",
            "host:8080",
            "[::1]:8123",
            "ha.local:80"
        ]
    );
    // an allowed name at a private address
    let mut f = WebFetch::new(&json!({"url": "http://homey.local/api"}), options.clone());
    let _ = f.start();
    assert!(matches!(
        f.resolved(&[ip("192.168.1.20")]),
        FetchAction::Request { .. }
    ));
    // a redirect from it to another local host is refused
    let e = error_of(f.response(
        302,
        &headers(&[("Location", "http://127.0.0.1:8080/admin")]),
    ));
    assert!(
        e.contains("the redirect to 127.0.0.1") && e.contains("loopback"),
        "{e}"
    );
    // allowed literal addresses, IPv6 included, at the ports listed
    for url in [
        "http://192.168.1.30/",
        "https://192.168.1.30/",
        "http://[::1]:8123/",
        "http://[::1]/",
        "http://host:8080/",
    ] {
        let mut f = WebFetch::new(&json!({ "url": url }), options.clone());
        let a = match f.start() {
            FetchAction::Resolve { .. } => f.resolved(&[ip("10.0.0.8")]),
            a => a,
        };
        assert!(matches!(a, FetchAction::Request { .. }), "{url}: {a:?}");
    }
    // not at other ports: a host without a port is allowed at 80 and 443
    // only, one with a port at that port only
    for (url, port) in [
        ("http://192.168.1.30:8123/", "8123"),
        ("http://[::1]:8124/", "8124"),
        ("http://host:8081/", "8081"),
        ("http://ha.local:8123/", "8123"),
    ] {
        let mut f = WebFetch::new(&json!({ "url": url }), options.clone());
        let a = match f.start() {
            FetchAction::Resolve { .. } => f.resolved(&[ip("10.0.0.8")]),
            a => a,
        };
        let e = error_of(a);
        assert!(e.contains("ports listed") && e.contains(port), "{url}: {e}");
    }
    // other hosts are still checked
    let mut f = WebFetch::new(&json!({"url": "http://nas.local/"}), options.clone());
    let _ = f.start();
    assert!(error_of(f.resolved(&[ip("192.168.1.20")])).contains("private"));
    // never the unspecified address, even for an allowed host
    let mut f = WebFetch::new(&json!({"url": "http://homey.local/"}), options);
    let _ = f.start();
    assert!(error_of(f.resolved(&[ip("0.0.0.0")])).contains("unspecified"));
}

#[test]
fn allowed_hosts_are_never_reached_through_a_redirect_from_elsewhere() {
    let options = FetchOptions::new().with_allowed_hosts(["homeassistant.local:8123"]);
    // a public page redirecting to the allowed host: refused, and said why
    let mut f = WebFetch::new(&json!({"url": "https://example.com/"}), options.clone());
    let _ = f.start();
    assert!(matches!(
        f.resolved(&[ip(PUBLIC)]),
        FetchAction::Request { .. }
    ));
    let to_ha = headers(&[("Location", "http://homeassistant.local:8123/api/states")]);
    assert!(matches!(
        f.response(302, &to_ha),
        FetchAction::Resolve { .. }
    ));
    let e = error_of(f.resolved(&[ip("192.168.1.20")]));
    assert!(
        e.contains("the redirect to homeassistant.local") && e.contains("not through a redirect"),
        "{e}"
    );
    // the allowed host redirecting to itself is followed; once the chain
    // left it, coming back is refused
    let mut f = WebFetch::new(
        &json!({"url": "http://homeassistant.local:8123/"}),
        options.clone(),
    );
    let _ = f.start();
    assert!(matches!(
        f.resolved(&[ip("192.168.1.20")]),
        FetchAction::Request { .. }
    ));
    assert!(matches!(
        f.response(302, &headers(&[("Location", "/lovelace")])),
        FetchAction::Resolve { .. }
    ));
    assert!(matches!(
        f.resolved(&[ip("192.168.1.20")]),
        FetchAction::Request { .. }
    ));
    assert!(matches!(
        f.response(302, &headers(&[("Location", "https://example.com/login")])),
        FetchAction::Resolve { .. }
    ));
    assert!(matches!(
        f.resolved(&[ip(PUBLIC)]),
        FetchAction::Request { .. }
    ));
    assert!(matches!(
        f.response(302, &to_ha),
        FetchAction::Resolve { .. }
    ));
    assert!(error_of(f.resolved(&[ip("192.168.1.20")])).contains("not through a redirect"));
    // a public name resolving to a local address is refused as ever
    let mut f = WebFetch::new(&json!({"url": "http://example.com/"}), options);
    let _ = f.start();
    assert!(error_of(f.resolved(&[ip("192.168.1.20")])).contains("private"));
}

#[test]
fn content_codings_are_named_or_refused() {
    let codings = |value: &[(&str, &str)]| {
        let mut f = WebFetch::new(&json!({"url": "https://example.com/"}), FetchOptions::new());
        let _ = f.start();
        let _ = f.resolved(&[ip(PUBLIC)]);
        let mut h = vec![("Content-Type", "text/html")];
        h.extend_from_slice(value);
        match f.response(200, &headers(&h)) {
            FetchAction::Read => Ok(f
                .codings()
                .iter()
                .map(|c| c.name())
                .collect::<Vec<_>>()
                .join(",")),
            a => Err(error_of(a)),
        }
    };
    assert_eq!(codings(&[]).unwrap(), "");
    assert_eq!(codings(&[("Content-Encoding", "identity")]).unwrap(), "");
    assert_eq!(codings(&[("Content-Encoding", "GZIP")]).unwrap(), "gzip");
    assert_eq!(
        codings(&[("Content-Encoding", "gzip, gzip")]).unwrap(),
        "gzip,gzip"
    );
    // several headers are one list, in order
    assert_eq!(
        codings(&[
            ("Content-Encoding", "deflate"),
            ("content-encoding", "x-gzip")
        ])
        .unwrap(),
        "deflate,gzip"
    );
    assert_eq!(codings(&[("Content-Encoding", "br")]).unwrap(), "br");
    for (value, says) in [
        ("zstd", "zstd, which web_fetch cannot decode"),
        ("gzip, compress", "compress"),
        ("gzip, gzip, gzip", "3 times"),
        ("gzip,\u{1}", "\\u{1}"),
    ] {
        let e = codings(&[("Content-Encoding", value)]).unwrap_err();
        assert!(e.contains(says), "{value}: {e}");
    }
    // a body that is not what its coding says
    let mut f = WebFetch::new(&json!({"url": "https://example.com/"}), FetchOptions::new());
    let _ = f.start();
    let _ = f.resolved(&[ip(PUBLIC)]);
    let h = headers(&[
        ("Content-Type", "text/html"),
        ("Content-Encoding", "gzip, gzip"),
    ]);
    assert_eq!(f.response(200, &h), FetchAction::Read);
    let e = error_of(f.coding_failed("incorrect header check"));
    assert!(
        e.contains("gzip, gzip") && e.contains("incorrect header check"),
        "{e}"
    );
}

#[test]
fn mixed_answers_use_an_allowed_address() {
    let mut f = WebFetch::new(&json!({"url": "https://a.example/"}), FetchOptions::new());
    let _ = f.start();
    let FetchAction::Request { address, .. } = f.resolved(&[ip("127.0.0.1"), ip(PUBLIC)]) else {
        panic!()
    };
    assert_eq!(address, ip(PUBLIC));
    let mut f = WebFetch::new(&json!({"url": "https://a.example/"}), FetchOptions::new());
    let _ = f.start();
    assert!(error_of(f.resolved(&[])).contains("no addresses"));
    let mut f = WebFetch::new(&json!({"url": "https://nx.example/"}), FetchOptions::new());
    let _ = f.start();
    assert!(
        error_of(f.resolve_failed("ENOTFOUND")).contains("could not resolve nx.example: ENOTFOUND")
    );
}

#[test]
fn redirects_are_bounded() {
    let mut f = requested(
        json!({"url": "https://loop.example/0"}),
        FetchOptions::new(),
    );
    for i in 1..=5 {
        let to = format!("/{i}");
        assert!(matches!(
            f.response(302, &headers(&[("Location", &to)])),
            FetchAction::Resolve { .. }
        ));
        assert!(matches!(
            f.resolved(&[ip(PUBLIC)]),
            FetchAction::Request { .. }
        ));
    }
    let e = error_of(f.response(302, &headers(&[("Location", "/6")])));
    assert!(e.contains("too many redirects (more than 5)"), "{e}");

    let mut f = requested(
        json!({"url": "https://a.example/"}),
        FetchOptions::new().with_max_redirects(0),
    );
    assert!(error_of(f.response(301, &headers(&[("Location", "/b")]))).contains("more than 0"));
    // redirects that lead nowhere fetchable
    let mut f = requested(json!({"url": "https://a.example/"}), FetchOptions::new());
    assert!(
        error_of(f.response(302, &headers(&[("Location", "ftp://a.example/file")])))
            .contains("not ftp:")
    );
    let mut f = requested(json!({"url": "https://a.example/"}), FetchOptions::new());
    assert!(error_of(f.response(302, &[])).contains("without a Location"));
}

#[test]
fn oversize_bodies_are_cut_at_the_cap() {
    let cap = 1000;
    let mut f = requested(
        json!({"url": "https://big.example/", "format": "text"}),
        FetchOptions::new().with_max_bytes(cap),
    );
    assert_eq!(
        f.response(200, &headers(&[("Content-Type", "text/plain")])),
        FetchAction::Read
    );
    assert_eq!(f.body(&[b'a'; 600]), FetchAction::Read);
    // the chunk that passes the cap ends the fetch at once
    let v = done(f.body(&[b'b'; 600]));
    let text = v["structuredContent"]["content"].as_str().unwrap();
    assert_eq!(text.len(), cap + "\n\n[truncated]".len());
    assert!(text.starts_with(&"a".repeat(600)) && text.ends_with("b\n\n[truncated]"));
    assert_eq!(v["structuredContent"]["metadata"]["truncated"], true);
    assert_eq!(v["structuredContent"]["metadata"]["bytes"], cap);
    // exactly the cap is not cut
    let mut f = requested(
        json!({"url": "https://big.example/"}),
        FetchOptions::new().with_max_bytes(4),
    );
    let _ = f.response(200, &headers(&[("Content-Type", "text/plain")]));
    assert_eq!(f.body(b"abcd"), FetchAction::Read);
    assert_eq!(
        done(f.end())["structuredContent"]["metadata"]["truncated"],
        false
    );
    // the converted content has its own limit
    let html = format!("<p>{}</p>", "word ".repeat(10_000));
    let mut f = requested(
        json!({"url": "https://big.example/"}),
        FetchOptions::new().with_max_content(100),
    );
    let _ = f.response(200, &headers(&[("Content-Type", "text/html")]));
    let _ = f.body(html.as_bytes());
    let v = done(f.end());
    assert!(v["content"][0]["text"]
        .as_str()
        .unwrap()
        .ends_with("word\n\n[truncated]"));
}

#[test]
fn content_types() {
    let json_body = br#"{"temp": 19.5}"#;
    let v = page(
        json!({"url": "https://api.example/t"}),
        "application/json",
        json_body,
    );
    assert_eq!(v["content"][0]["text"], r#"{"temp": 19.5}"#);
    let v = page(
        json!({"url": "https://api.example/t"}),
        "application/ld+json; charset=utf-8",
        json_body,
    );
    assert_eq!(v["structuredContent"]["metadata"]["format"], "text");
    let v = page(
        json!({"url": "https://x.example/r.md"}),
        "text/markdown",
        b"# Title\n\ntext",
    );
    assert_eq!(v["content"][0]["text"], "# Title\n\ntext");
    // HTML in the three formats
    let html: &[u8] =
        b"<html><head><title>T</title></head><body><h2>Head</h2><p>A <b>b</b></p></body></html>";
    let v = page(json!({"url": "https://x.example/"}), "text/html", html);
    assert_eq!(v["content"][0]["text"], "## Head\n\nA **b**");
    let v = page(
        json!({"url": "https://x.example/", "format": "text"}),
        "text/html",
        html,
    );
    assert_eq!(v["content"][0]["text"], "Head\n\nA b");
    let v = page(
        json!({"url": "https://x.example/", "format": "html"}),
        "text/html",
        html,
    );
    assert_eq!(
        v["content"][0]["text"],
        String::from_utf8_lossy(html).as_ref()
    );
    assert_eq!(v["structuredContent"]["title"], "T");
    // no content type: HTML recognised, text kept, binary refused
    let v = page(
        json!({"url": "https://x.example/"}),
        "",
        b"  <!DOCTYPE html><p>hi",
    );
    assert_eq!(v["content"][0]["text"], "hi");
    let v = page(
        json!({"url": "https://x.example/"}),
        "text/html",
        b"<div id=app></div><script>render()</script>",
    );
    assert!(v["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("no readable text"));
    assert_eq!(v["structuredContent"]["content"], "");
    let v = page(json!({"url": "https://x.example/"}), "", b"just text");
    assert_eq!(v["content"][0]["text"], "just text");
    let mut f = requested(json!({"url": "https://x.example/f"}), FetchOptions::new());
    let _ = f.response(200, &[]);
    let _ = f.body(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    assert!(error_of(f.end()).contains("binary data"));
    // binary types are refused at the headers, before any body
    for ct in [
        "image/png",
        "application/pdf",
        "application/octet-stream",
        "video/mp4",
        "application/zip",
    ] {
        let mut f = requested(json!({"url": "https://x.example/f"}), FetchOptions::new());
        let e = error_of(f.response(200, &headers(&[("Content-Type", ct)])));
        assert!(e.contains(ct) && e.contains("not a web page"), "{e}");
    }
    // HTTP errors
    let mut f = requested(
        json!({"url": "https://x.example/missing"}),
        FetchOptions::new(),
    );
    assert_eq!(
        error_of(f.response(404, &[])),
        "https://x.example/missing answered HTTP 404 Not Found"
    );
    let mut f = requested(json!({"url": "https://x.example/"}), FetchOptions::new());
    assert!(error_of(f.response(304, &[])).contains("HTTP 304"));
    let mut f = requested(json!({"url": "https://x.example/"}), FetchOptions::new());
    let v = done(f.response(503, &[]));
    assert_eq!(v["structuredContent"]["url"], "https://x.example/");
}

#[test]
fn encodings() {
    let latin1: &[u8] = b"<p>Caf\xe9 \x80 5</p>";
    let v = page(
        json!({"url": "https://x.example/"}),
        "text/html; charset=ISO-8859-1",
        latin1,
    );
    assert_eq!(v["content"][0]["text"], "Café € 5");
    assert_eq!(
        v["structuredContent"]["metadata"]["charset"],
        "windows-1252"
    );
    // undeclared and not UTF-8: windows-1252
    let v = page(json!({"url": "https://x.example/"}), "text/html", latin1);
    assert_eq!(v["content"][0]["text"], "Café € 5");
    // a wrong label: decoded as declared, with replacement characters
    let v = page(
        json!({"url": "https://x.example/"}),
        "text/html; charset=utf-8",
        latin1,
    );
    assert_eq!(v["content"][0]["text"], "Caf\u{fffd} \u{fffd} 5");
    // an encoding left to the shell
    let mut f = requested(json!({"url": "https://x.example/"}), FetchOptions::new());
    let _ = f.response(200, &headers(&[("content-type", "text/html")]));
    let _ = f.body(b"<meta charset=\"Shift_JIS\"><p>\x93\xfa\x96\x7b</p>");
    assert_eq!(
        f.end(),
        FetchAction::Decode {
            encoding: "shift_jis"
        }
    );
    assert_eq!(f.body_bytes().len(), 37);
    let v = done(f.decoded("<meta charset=\"Shift_JIS\"><p>日本</p>"));
    assert_eq!(v["content"][0]["text"], "日本");
    assert_eq!(v["structuredContent"]["metadata"]["charset"], "shift_jis");
    // the shell's decoder cannot do it: read as UTF-8
    let mut f = requested(json!({"url": "https://x.example/"}), FetchOptions::new());
    let _ = f.response(
        200,
        &headers(&[("content-type", "text/plain; charset=koi8-r")]),
    );
    let _ = f.body(b"ok \xc1");
    assert_eq!(f.end(), FetchAction::Decode { encoding: "koi8-r" });
    let v = done(f.decode_failed());
    assert_eq!(v["content"][0]["text"], "ok \u{fffd}");
}

#[test]
fn arguments_and_timeouts() {
    let t = |args: Value| WebFetch::new(&args, FetchOptions::new());
    assert_eq!(t(json!({"url": "https://x.example/"})).timeout_ms(), 30_000);
    assert_eq!(
        t(json!({"url": "https://x.example/", "timeout": 120})).timeout_ms(),
        120_000
    );
    assert_eq!(
        t(json!({"url": "https://x.example/", "timeout": "45"})).timeout_ms(),
        45_000
    );
    assert_eq!(
        t(json!({"url": "https://x.example/", "timeout": 2.5})).timeout_ms(),
        2_500
    );
    for (args, want) in [
        (
            json!({"url": "https://x.example/", "timeout": 121}),
            "at most 120 seconds",
        ),
        (
            json!({"url": "https://x.example/", "timeout": 0}),
            "from 1 to 120",
        ),
        (
            json!({"url": "https://x.example/", "timeout": -5}),
            "from 1 to 120",
        ),
        (
            json!({"url": "https://x.example/", "timeout": "soon"}),
            "from 1 to 120",
        ),
        (
            json!({"url": "https://x.example/", "format": "pdf"}),
            "format must be",
        ),
        (json!({"url": "ftp://x.example/"}), "not ftp:"),
        (json!({"url": "https://me:secret@x.example/"}), "password"),
        (json!({"url": "https://x.example:22/"}), "port 22"),
        (json!({"url": "x.example"}), "not absolute"),
        (json!({"url": 5}), "url must be a string"),
        (json!({}), "url is required"),
        (json!("https://x.example/"), "must be an object"),
    ] {
        let mut f = t(args.clone());
        assert!(f.arguments().is_err(), "{args}");
        let e = error_of(f.start());
        assert!(
            e.starts_with("web_fetch: ") && e.contains(want),
            "{args}: {e}"
        );
    }
    // the timer fired
    let mut f = requested(
        json!({"url": "https://slow.example/", "timeout": 10}),
        FetchOptions::new(),
    );
    assert_eq!(
        error_of(f.timed_out()),
        "https://slow.example/ did not answer within 10 seconds"
    );
    assert!(f.is_done());
    // a network error
    let mut f = requested(json!({"url": "https://x.example/"}), FetchOptions::new());
    assert_eq!(
        error_of(f.failed("ECONNRESET")),
        "could not fetch https://x.example/: ECONNRESET"
    );
    // reports out of order are errors, not panics
    let mut f = WebFetch::new(&json!({"url": "https://x.example/"}), FetchOptions::new());
    assert!(error_of(f.body(b"x")).contains("not started"));
    let mut f = requested(json!({"url": "https://x.example/"}), FetchOptions::new());
    assert!(error_of(f.resolved(&[ip(PUBLIC)])).contains("waiting for a response"));
    assert!(error_of(f.end()).contains("already done"));
}

fn exa_reply(id: &Value, result: Value) -> String {
    format!(
        "event: message\ndata: {}\n\n",
        json!({"jsonrpc": "2.0", "id": id, "result": result})
    )
}

fn search(args: Value) -> (WebSearch, Value) {
    let s = WebSearch::new(&args, &SearchServiceOptions::new()).expect("valid arguments");
    let request: Value = serde_json::from_str(s.body()).expect("JSON");
    let id = request["id"].clone();
    (s, id)
}

const EXA_TEXT: &str = "Title: Amber wind warning for tonight\nURL: https://news.example.org/weather/amber\nPublished: 2025-11-19T13:05:00.000Z\nAuthor: Maria Jansen\nHighlights:\nGusts of 90 to 110 km/h are expected\nbetween midnight and four.\n\n---\n\nTitle: Storm safety checklist\nURL: https://safety.example.gov/storm\nPublished: N/A\nAuthor: N/A\nText: Secure loose objects. Stay indoors.\n\n---\n\nTitle: N/A\nURL: https://third.example/\nPublished: N/A\nAuthor: N/A";

#[test]
fn search_requests() {
    let (s, id) = search(
        json!({"query": "  storm warning  ", "num_results": "3", "type": "deep", "livecrawl": "preferred", "context_max_chars": 5000}),
    );
    let request: Value = serde_json::from_str(s.body()).unwrap();
    assert_eq!(request["method"], "tools/call");
    assert_eq!(id, json!(1));
    assert_eq!(
        request["params"]["arguments"],
        json!({"query": "storm warning", "numResults": 3, "type": "deep", "livecrawl": "preferred", "contextMaxCharacters": 5000})
    );
    assert!(s
        .headers()
        .iter()
        .any(|(k, v)| k == "Accept" && v.contains("text/event-stream")));
    assert_eq!(s.timeout_ms(), 25_000);
    let r: Value = serde_json::from_str(&s.request_json()).unwrap();
    assert_eq!(r["url"], "https://mcp.exa.ai/mcp");
    assert_eq!(r["body"], s.body());
    assert_eq!(r["timeoutMs"], 25_000);
    assert_eq!(r["headers"][0], json!(["Content-Type", "application/json"]));
    let keyed = WebSearch::new(
        &json!({"query": "x"}),
        &SearchServiceOptions::new().with_api_key("k y&z"),
    )
    .unwrap();
    assert_eq!(keyed.url(), "https://mcp.exa.ai/mcp?exaApiKey=k%20y%26z");
    for (args, want) in [
        (json!({}), "query is required"),
        (json!({"query": "  "}), "must not be empty"),
        (json!({"query": 3}), "must be a string"),
        (json!({"query": "x", "num_results": 0}), "from 1 to 20"),
        (json!({"query": "x", "num_results": 21}), "from 1 to 20"),
        (json!({"query": "x", "num_results": 2.5}), "from 1 to 20"),
        (
            json!({"query": "x", "type": "slow"}),
            "\"auto\", \"fast\", \"deep\"",
        ),
        (
            json!({"query": "x", "context_max_chars": 10}),
            "from 1000 to 100000",
        ),
        (json!({"query": "x".repeat(2001)}), "at most 2000"),
    ] {
        let err = WebSearch::new(&args, &SearchServiceOptions::new()).unwrap_err();
        let v: Value = serde_json::from_str(&err).unwrap();
        assert_eq!(v["isError"], true);
        let e = v["structuredContent"]["error"].as_str().unwrap();
        assert!(
            e.starts_with("web_search: ") && e.contains(want),
            "{args}: {e}"
        );
    }
}

#[test]
fn search_replies_over_sse_and_json() {
    let (s, id) = search(json!({"query": "storm"}));
    let result = json!({"content": [{"type": "text", "text": EXA_TEXT}]});
    let v: Value =
        serde_json::from_str(&s.reply(200, "text/event-stream", &exa_reply(&id, result.clone())))
            .unwrap();
    let text = v["content"][0]["text"].as_str().unwrap();
    assert_eq!(
        text,
        "Results for \"storm\":\n\n\
         1. Amber wind warning for tonight\n   https://news.example.org/weather/amber\n   Published 2025-11-19T13:05:00.000Z · by Maria Jansen\n   Gusts of 90 to 110 km/h are expected between midnight and four.\n\n\
         2. Storm safety checklist\n   https://safety.example.gov/storm\n   Secure loose objects. Stay indoors.\n\n\
         3. https://third.example/\n   https://third.example/"
    );
    let results = v["structuredContent"]["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    assert_eq!(
        results[1],
        json!({"title": "Storm safety checklist", "url": "https://safety.example.gov/storm", "snippet": "Secure loose objects. Stay indoors."})
    );
    assert!(v.get("isError").is_none());
    // the same over plain JSON
    let body = json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string();
    let w: Value = serde_json::from_str(&s.reply(200, "application/json", &body)).unwrap();
    assert_eq!(w["content"], v["content"]);
    // a notification before the reply in the stream is skipped
    let noisy =
        format!(
        "event: message\ndata: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}}\n\n{}",
        exa_reply(&id, json!({"content": [{"type": "text", "text": EXA_TEXT}]}))
    );
    let n: Value =
        serde_json::from_str(&s.reply(200, "text/event-stream; charset=utf-8", &noisy)).unwrap();
    assert_eq!(n["content"], v["content"]);
    // num_results bounds what is returned
    let (s2, id2) = search(json!({"query": "storm", "num_results": 1}));
    let one: Value = serde_json::from_str(&s2.reply(
        200,
        "text/event-stream",
        &exa_reply(
            &id2,
            json!({"content": [{"type": "text", "text": EXA_TEXT}]}),
        ),
    ))
    .unwrap();
    assert_eq!(
        one["structuredContent"]["results"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn search_reply_shapes() {
    let (s, id) = search(json!({"query": "thermostat manual"}));
    let reply = |r: Value| -> Value {
        serde_json::from_str(&s.reply(200, "text/event-stream", &exa_reply(&id, r))).unwrap()
    };
    // results as JSON text (older servers)
    let json_text = json!({"results": [{"title": "HT-200 manual", "url": "https://x.example/ht200.pdf", "publishedDate": "2024-01-01", "text": "Mounting the  valve\n adapter"}]}).to_string();
    let v = reply(json!({"content": [{"type": "text", "text": json_text}]}));
    assert_eq!(
        v["structuredContent"]["results"][0]["snippet"],
        "Mounting the valve adapter"
    );
    assert_eq!(
        v["structuredContent"]["results"][0]["published"],
        "2024-01-01"
    );
    // results in structuredContent, highlights joined
    let v = reply(
        json!({"content": [], "structuredContent": {"results": [{"url": "https://y.example/", "highlights": ["one", "two"]}]}}),
    );
    assert_eq!(
        v["structuredContent"]["results"][0],
        json!({"title": "https://y.example/", "url": "https://y.example/", "snippet": "one … two"})
    );
    // nothing found
    let v = reply(
        json!({"content": [{"type": "text", "text": "No search results found. Please try a different query."}]}),
    );
    assert_eq!(
        v["content"][0]["text"],
        "No results for \"thermostat manual\"."
    );
    assert_eq!(v["structuredContent"]["results"], json!([]));
    // text in a shape not recognised is passed on
    let v = reply(json!({"content": [{"type": "text", "text": "Some   answer\nwithout fields"}]}));
    assert_eq!(v["content"][0]["text"], "Some answer without fields");
    // long snippets are cut to the budget
    let long = format!(
        "Title: Long\nURL: https://l.example/\nText: {}",
        "word ".repeat(2000)
    );
    let v = reply(json!({"content": [{"type": "text", "text": long}]}));
    let snippet = v["structuredContent"]["results"][0]["snippet"]
        .as_str()
        .unwrap();
    assert!(
        snippet.ends_with('…') && snippet.chars().count() <= 1201,
        "{}",
        snippet.len()
    );
}

#[test]
fn search_errors_are_clear_tool_errors() {
    let (s, id) = search(json!({"query": "storm"}));
    let err = |reply: String| -> String {
        let v: Value = serde_json::from_str(&reply).unwrap();
        assert_eq!(v["isError"], true, "{v}");
        assert_eq!(v["structuredContent"]["query"], "storm");
        v["structuredContent"]["error"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let rpc = format!(
        "event: message\ndata: {}\n\n",
        json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32602, "message": "Invalid arguments for tool web_search_exa"}})
    );
    assert_eq!(
        err(s.reply(200, "text/event-stream", &rpc)),
        "web search failed: the search service answered with JSON-RPC error -32602: Invalid arguments for tool web_search_exa"
    );
    let tool_error = exa_reply(
        &id,
        json!({"content": [{"type": "text", "text": "Search error (401): invalid API key"}], "isError": true}),
    );
    assert_eq!(
        err(s.reply(200, "text/event-stream", &tool_error)),
        "web search failed: the search service reported an error: Search error (401): invalid API key"
    );
    assert_eq!(
        err(s.reply(502, "text/html", "<h1>Bad gateway</h1>")),
        "web search failed: the search service answered HTTP 502"
    );
    assert!(err(s.reply(429, "application/json", "{}")).contains("limiting requests (HTTP 429)"));
    assert!(err(s.reply(401, "application/json", "{}")).contains("HTTP 401"));
    assert!(err(s.reply(200, "text/html", "<p>hi")).contains("text/html"));
    assert!(err(s.reply(200, "text/event-stream", "data: {oops\n\n")).contains("not readable"));
    assert!(err(s.reply(
        200,
        "application/json",
        "{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{}}"
    ))
    .contains("no response to request 1"));
    assert!(err(s.reply(202, "", "")).contains("sent no result"));
    assert_eq!(
        err(s.timed_out()),
        "web search failed: the search service did not answer within 25 seconds"
    );
    assert!(err(s.failed("getaddrinfo ENOTFOUND mcp.exa.ai"))
        .contains("could not reach the search service"));
}

#[test]
fn tool_definitions() {
    for tool in [web_fetch_tool(), web_search_tool()] {
        assert_eq!(tool["annotations"]["readOnlyHint"], true);
        assert_eq!(tool["annotations"]["openWorldHint"], true);
        assert_eq!(tool["inputSchema"]["type"], "object");
    }
    let catalog = merge_web_tools(&Catalog::parse(b"[]").unwrap(), WebTools::all());
    // the schemas accept what the machines accept, and refuse what they refuse
    let fetch = catalog.get("web_fetch").unwrap();
    assert!(validate_arguments(
        fetch.input_schema(),
        &json!({"url": "https://x.example/", "timeout": 30})
    )
    .is_valid());
    assert!(!validate_arguments(
        fetch.input_schema(),
        &json!({"url": "https://x.example/", "timeout": 500})
    )
    .is_valid());
    assert!(!validate_arguments(fetch.input_schema(), &json!({"format": "pdf"})).is_valid());
    let search = catalog.get("web_search").unwrap();
    assert!(validate_arguments(
        search.input_schema(),
        &json!({"query": "x", "num_results": 5})
    )
    .is_valid());
    assert!(!validate_arguments(
        search.input_schema(),
        &json!({"query": "x", "num_results": 50})
    )
    .is_valid());
    // categorised "web" for search and disclosure
    let index = ToolIndex::build(&catalog, Some(&web_tools_metadata())).unwrap();
    let hits = index.search("zoek op internet", &SearchOptions::default());
    assert_eq!(hits.hits[0].name, "web_search");
    let web = index.search(
        "webpagina lezen",
        &SearchOptions::default().with_category("web"),
    );
    assert_eq!(web.hits[0].name, "web_fetch");
    assert_eq!(web.hits[0].category, "web");
    // a catalog's own tool of the same name wins
    let own = Catalog::parse(
        br#"[{"name": "web_fetch", "description": "mine", "inputSchema": {"type": "object"}}]"#,
    )
    .unwrap();
    let merged = merge_web_tools(&own, WebTools::new().with_fetch(true));
    assert_eq!(merged.len(), 1);
    assert_eq!(merged.get("web_fetch").unwrap().description(), Some("mine"));
    assert_eq!(classify(ip("127.0.0.1")), AddressClass::Loopback);
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.next() % items.len()]
    }
}

/// Random URLs, redirects and event orders: errors, never panics (the
/// tests run with overflow checks).
#[test]
fn random_urls_and_event_orders_never_panic() {
    use mcp_switchboard::web::Url;
    const PIECES: &[&str] = &[
        "http",
        "https",
        "ftp",
        ":",
        "//",
        "/",
        "\\",
        "@",
        "user",
        ":pw",
        "[",
        "]",
        "::1",
        "::ffff:",
        "127.0.0.1",
        "0x7f",
        ".",
        "..",
        "%2e",
        "%",
        "%zz",
        "%41",
        "?",
        "#",
        "=",
        "&",
        "example",
        "com",
        "xn--",
        "münchen",
        "☃",
        " ",
        "\t",
        "\n",
        ":80",
        ":0",
        ":99999",
        ":8080",
        "a",
        "9999999999",
        "0",
        "1.2.3.4.5",
        "-",
        "\u{0}",
        "\u{7f}",
    ];
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let base = Url::parse("https://example.com/a/b?c#d").unwrap();
    for _ in 0..20_000 {
        let n = rng.next() % 12;
        let s: String = (0..n).map(|_| rng.pick(PIECES)).collect();
        if let Ok(u) = Url::parse(&s) {
            // a parsed URL parses again to itself
            assert_eq!(Url::parse(u.as_str()).as_ref(), Ok(&u), "{s:?}");
        }
        let _ = base.join(&s);
    }
    let addrs = [ip(PUBLIC), ip("10.0.0.1"), ip("::1"), ip("2606:4700::1111")];
    for _ in 0..5_000 {
        let url = format!(
            "{}://{}/",
            rng.pick(&["http", "https"]),
            rng.pick(&["a.example", "127.0.0.1", "[::1]", "b.example:8443"])
        );
        let mut f = WebFetch::new(
            &json!({"url": url, "timeout": rng.next() % 200}),
            FetchOptions::new().with_max_bytes(64).with_max_redirects(2),
        );
        let mut action = f.start();
        for _ in 0..12 {
            if matches!(action, FetchAction::Done(_)) {
                break;
            }
            action = match rng.next() % 9 {
                0 => f.resolved(&addrs[..rng.next() % 5]),
                1 => f.response(
                    [200, 301, 302, 404, 500, 204][rng.next() % 6],
                    &headers(&[
                        (
                            "Location",
                            rng.pick(&["/x", "http://127.0.0.1/", "//c.example/", "ftp://x/"]),
                        ),
                        (
                            "Content-Type",
                            rng.pick(&[
                                "text/html; charset=shift_jis",
                                "image/png",
                                "",
                                "application/json",
                            ]),
                        ),
                    ]),
                ),
                2 => f.body(&vec![b'<'; rng.next() % 100]),
                3 => f.end(),
                4 => f.decoded("<p>x"),
                5 => f.decode_failed(),
                6 => f.timed_out(),
                7 => f.resolve_failed("x"),
                _ => f.failed("y"),
            };
        }
        if let FetchAction::Done(text) = action {
            let v: Value = serde_json::from_str(&text).expect("a CallToolResult");
            assert!(v["content"].is_array());
        }
    }
}
