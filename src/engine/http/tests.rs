use super::*;

/// Header fields from lines of names and values in turn (as Node's
/// `req.rawHeaders` joined with a line feed).
fn raw_headers(raw: &str, wanted: &dyn Fn(&str) -> bool) -> Vec<(String, String)> {
    let lines: Vec<&str> = raw.split('\n').collect();
    combine_headers(lines.chunks_exact(2).map(|p| (p[0], p[1])), wanted)
}

#[test]
fn repeated_headers_are_combined_as_the_rules_read_them() {
    let all = |_: &str| true;
    let pairs = |v: Vec<(String, String)>| {
        v.into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
    };
    // repeats: the first Content-Type and Content-Length count; Host
    // and Authorization stay apart (the rules refuse them); any other
    // is joined
    let raw = "Host\na\nhost\nb\nAuthorization\nBearer 1\nauthorization\nBearer 2\nContent-Type\napplication/json\ncontent-type\ntext/plain\nContent-Length\n5\ncontent-length\n6\nOrigin\nx\norigin\ny\nMcp-Session-Id\ns1\nMCP-SESSION-ID\ns2\nMcp-Param-Zone\nk\nmcp-param-zone\nh";
    assert_eq!(
        pairs(raw_headers(raw, &all)),
        [
            "host=a",
            "host=b",
            "authorization=Bearer 1",
            "authorization=Bearer 2",
            "content-type=application/json",
            "content-length=5",
            "origin=x, y",
            "mcp-session-id=s1, s2",
            "mcp-param-zone=k, h",
        ]
    );
    // only the wanted ones; empty values stay; a name with no value is left out
    let wanted = |n: &str| n.eq_ignore_ascii_case("accept") || n.eq_ignore_ascii_case("x");
    assert_eq!(
        pairs(raw_headers("Host\na\nACCEPT\n\nx", &wanted)),
        ["accept="]
    );
    assert!(raw_headers("", &all).is_empty());
    assert_eq!(pairs(raw_headers("\n\n\n", &all)), ["=, "]);
    // the rules see the same request from raw lines as from pairs; two
    // Authorization headers (or two Host headers) are refused with 400
    let policy = HttpPolicy::for_host("127.0.0.1", Some("t".into())).unwrap();
    let request = |raw: &str| HttpRequest {
        method: "POST".into(),
        path: "/mcp".into(),
        headers: raw_headers(raw, &|n| {
            HEADERS_READ.iter().any(|h| h.eq_ignore_ascii_case(n))
        }),
        session_known: false,
    };
    let one = "content-type\napplication/json\naccept\napplication/json, text/event-stream\nauthorization\nBearer t";
    assert!(matches!(
        check_request(&request(one), &policy),
        HttpDecision::ReadBody { .. }
    ));
    for extra in [
        "\nAuthorization\nBearer x",
        "\nAuthorization\nBearer t",
        "\nHost\nlocalhost\nhost\nlocalhost",
    ] {
        match check_request(&request(&format!("{one}{extra}")), &policy) {
            HttpDecision::Reject {
                status,
                headers,
                message,
            } => {
                assert_eq!(status, 400, "{extra}");
                assert!(
                    message.contains("more than one Host or Authorization"),
                    "{message}"
                );
                assert!(headers.contains(&("Connection".into(), "close".into())));
            }
            d => panic!("{extra}: {d:?}"),
        }
    }
}

fn req(method: &str, headers: &[(&str, &str)], session_known: bool) -> HttpRequest {
    HttpRequest {
        method: method.into(),
        path: "/mcp".into(),
        headers: headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        session_known,
    }
}

fn status(d: HttpDecision) -> u16 {
    match d {
        HttpDecision::Reject { status, .. } => status,
        _ => 200,
    }
}

#[test]
fn binding_elsewhere_needs_a_token() {
    assert!(HttpPolicy::for_host("127.0.0.1", None).is_ok());
    assert!(HttpPolicy::for_host("::1", None).is_ok());
    assert!(HttpPolicy::for_host("0.0.0.0", None).is_err());
    assert!(HttpPolicy::for_host("0.0.0.0", Some("".into())).is_err());
    assert!(HttpPolicy::for_host("0.0.0.0", Some("s3cret".into())).is_ok());
}

#[test]
fn security_statuses() {
    let open = HttpPolicy::for_host("127.0.0.1", None).unwrap();
    let json = ("content-type", "application/json");
    assert_eq!(
        status(check_request(
            &req("POST", &[json, ("origin", "https://evil.example")], false),
            &open
        )),
        403
    );
    assert_eq!(
        status(check_request(
            &req("POST", &[json, ("origin", "http://localhost:5173")], false),
            &open
        )),
        200
    );
    assert_eq!(
        status(check_request(
            &req("POST", &[json, ("origin", "http://[::1]:80")], false),
            &open
        )),
        200
    );
    assert_eq!(
        status(check_request(
            &req("POST", &[json, ("content-length", "99999999")], false),
            &open
        )),
        413
    );
    assert_eq!(
        status(check_request(
            &req("POST", &[json, ("mcp-session-id", "zzz")], false),
            &open
        )),
        404
    );
    assert_eq!(
        status(check_request(
            &req(
                "POST",
                &[json, ("mcp-protocol-version", "1999-01-01")],
                false
            ),
            &open
        )),
        400
    );
    assert_eq!(
        status(check_request(
            &req("POST", &[("content-type", "text/plain")], false),
            &open
        )),
        415
    );
    assert_eq!(status(check_request(&req("PUT", &[], false), &open)), 405);
    assert_eq!(
        status(check_request(
            &req("GET", &[("accept", "application/json")], false),
            &open
        )),
        405
    );
    assert_eq!(
        check_request(
            &req(
                "GET",
                &[("accept", "text/event-stream"), ("mcp-session-id", "s")],
                true
            ),
            &open
        ),
        HttpDecision::OpenStream
    );
    assert_eq!(
        check_request(&req("DELETE", &[("mcp-session-id", "s")], true), &open),
        HttpDecision::EndSession
    );
    for (host, want) in [
        ("evil.example:80", 403),
        ("localhost:3000", 200),
        ("[::1]:3000", 200),
        ("127.0.0.1", 200),
    ] {
        assert_eq!(
            status(check_request(
                &req("POST", &[json, ("host", host)], false),
                &open
            )),
            want,
            "{host}"
        );
    }
    let mut other = req("POST", &[json], false);
    other.path = "/other".into();
    assert_eq!(status(check_request(&other, &open)), 404);
    let locked = HttpPolicy::for_host("0.0.0.0", Some("t0k".into())).unwrap();
    assert_eq!(
        status(check_request(
            &req(
                "POST",
                &[
                    json,
                    ("host", "hub.lan:80"),
                    ("authorization", "Bearer t0k")
                ],
                false
            ),
            &locked
        )),
        200
    );
    assert_eq!(
        status(check_request(&req("POST", &[json], false), &locked)),
        401
    );
    assert_eq!(
        status(check_request(
            &req("POST", &[json, ("authorization", "Bearer nope")], false),
            &locked
        )),
        401
    );
    assert_eq!(
        status(check_request(
            &req("POST", &[json, ("authorization", "Bearer t0k")], false),
            &locked
        )),
        200
    );
}

#[test]
fn reply_format_and_limits() {
    let p = HttpPolicy::for_host("127.0.0.1", None).unwrap();
    let json = ("content-type", "application/json");
    let sse =
        |accept: &str| match check_request(&req("POST", &[json, ("accept", accept)], false), &p) {
            HttpDecision::ReadBody { sse, .. } => sse,
            other => panic!("{other:?}"),
        };
    assert!(sse("text/event-stream"));
    assert!(!sse("application/json, text/event-stream"));
    assert!(!sse("*/*"));
    let stream =
        |accept: &str| match check_request(&req("POST", &[json, ("accept", accept)], false), &p) {
            HttpDecision::ReadBody { stream, .. } => stream,
            other => panic!("{other:?}"),
        };
    assert!(stream("application/json, text/event-stream"));
    assert!(stream("text/event-stream"));
    assert!(!stream("application/json"));
    assert_eq!(check_body_size(p.max_body, &p), None);
    assert_eq!(status(check_body_size(p.max_body + 1, &p).unwrap()), 413);
    assert_eq!(outcome_status(Outcome::Accepted, &p).0, 202);
    assert_eq!(outcome_status(Outcome::Cancelled, &p).0, 202);
    assert_eq!(outcome_status(Outcome::TooLarge, &p).0, 413);
    assert_eq!(outcome_status(Outcome::NoSession, &p).0, 400);
    assert_eq!(outcome_status(Outcome::Ended, &p).0, 204);
}

#[test]
fn bodies() {
    let p = HttpPolicy::for_host("127.0.0.1", None).unwrap();
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#;
    assert_eq!(check_body(init, false, &p), BodyDecision::NewSession);
    assert_eq!(
        check_body(
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
            false,
            &p
        ),
        BodyDecision::NoSession
    );
    assert_eq!(
        check_body(
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            true,
            &p
        ),
        BodyDecision::Message {
            expects_reply: false
        }
    );
    assert_eq!(
        check_body(
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
            true,
            &p
        ),
        BodyDecision::Message {
            expects_reply: true
        }
    );
    // bad JSON without a session: its JSON-RPC error comes from the rules
    match check_body("{oops", false, &p) {
        BodyDecision::Refuse { status, body } => {
            assert_eq!(status, 400);
            assert!(body.contains("-32700"), "{body}");
        }
        d => panic!("{d:?}"),
    }
    assert!(matches!(
        check_body("[]", false, &p),
        BodyDecision::Refuse { status: 400, .. }
    ));
}

fn post(headers: &[(&str, &str)]) -> HttpRequest {
    let mut all = vec![("content-type", "application/json")];
    all.extend_from_slice(headers);
    req("POST", &all, false)
}

#[test]
fn origins_are_parsed_and_matched_exactly() {
    let p = HttpPolicy::for_host("127.0.0.1", None)
        .unwrap()
        .with_origins(vec!["https://app.example".into()]);
    for origin in [
        "http://localhost",
        "http://localhost:5173",
        "HTTP://LOCALHOST:5173",
        "http://127.0.0.1:8765",
        "http://127.1.2.3",
        "https://[::1]:443",
        "http://[::ffff:127.0.0.1]",
        "https://app.example",
        "https://APP.example",
    ] {
        assert_eq!(
            status(check_request(&post(&[("origin", origin)]), &p)),
            200,
            "{origin}"
        );
    }
    for origin in [
        "null",
        "",
        "http://127.0.0.1.nip.io",
        "http://127.evil.example",
        "http://[::1].evil.com",
        "http://127.0.0.1@evil.com",
        "http://evil.com@127.0.0.1",
        "http://localhost.evil.com",
        "http://localhost:5173.evil.com",
        "http://localhost:99999",
        "http://localhost:",
        "http://localhost/",
        "http://127.0.0.1/evil",
        "file://localhost",
        "ws://localhost",
        "http://[::2]",
        "http://0.0.0.0",
        "http://2130706433",
        "http://127.0.0.1%2eevil.com",
        "https://app.example.evil",
        "https://app.example:444",
        "http://app.example",
    ] {
        assert_eq!(
            status(check_request(&post(&[("origin", origin)]), &p)),
            403,
            "{origin:?}"
        );
    }
    let any = p.clone().with_origins(vec!["*".into()]);
    assert_eq!(
        status(check_request(&post(&[("origin", "null")]), &any)),
        200
    );
}

#[test]
fn hosts_are_parsed_and_matched_exactly() {
    let p = HttpPolicy::for_host("127.0.0.1", None).unwrap();
    for host in [
        "localhost",
        "localhost:8765",
        "127.0.0.1:1",
        "[::1]:8765",
        "[::1]",
        "LocalHost:80",
    ] {
        assert_eq!(
            status(check_request(&post(&[("host", host)]), &p)),
            200,
            "{host}"
        );
    }
    for host in [
        "127.0.0.1.nip.io:8765",
        "127.evil.example:8765",
        "localhost.evil.example",
        "[::1].evil.com:80",
        "evil.example@127.0.0.1",
        "127.0.0.1:80:80",
        "::1",
        "",
        "localhost:port",
    ] {
        assert_eq!(
            status(check_request(&post(&[("host", host)]), &p)),
            403,
            "{host:?}"
        );
    }
    // bound elsewhere (with a token), any host may be used
    let lan = HttpPolicy::for_host("0.0.0.0", Some("t".into())).unwrap();
    let auth = ("authorization", "Bearer t");
    assert_eq!(
        status(check_request(&post(&[("host", "hub.lan:80"), auth]), &lan)),
        200
    );
}

#[test]
fn loopback_binds_are_exact() {
    for host in [
        "127.0.0.1",
        "127.9.8.7",
        "localhost",
        "::1",
        "[::1]",
        "0:0:0:0:0:0:0:1",
    ] {
        assert!(is_loopback(host), "{host}");
        assert!(HttpPolicy::for_host(host, None).is_ok(), "{host}");
    }
    for host in [
        "127.evil.example",
        "127.0.0.1.nip.io",
        "localhost.evil",
        "0.0.0.0",
        "::",
        "127.1",
        "128.0.0.1",
        "",
    ] {
        assert!(!is_loopback(host), "{host}");
        assert!(HttpPolicy::for_host(host, None).is_err(), "{host}");
    }
}

#[test]
fn bearer_tokens() {
    let p = HttpPolicy::for_host("0.0.0.0", Some("s3cret".into())).unwrap();
    for ok in [
        "Bearer s3cret",
        "bearer s3cret",
        "BEARER s3cret",
        "Bearer  s3cret ",
        "Bearer\ts3cret",
    ] {
        assert_eq!(
            status(check_request(&post(&[("authorization", ok)]), &p)),
            200,
            "{ok:?}"
        );
    }
    for bad in [
        "Bearer s3cre",
        "Bearer s3cret2",
        "Bearers3cret",
        "Basic s3cret",
        "s3cret",
        "Bearer",
        "Bearer ",
        "",
    ] {
        assert_eq!(
            status(check_request(&post(&[("authorization", bad)]), &p)),
            401,
            "{bad:?}"
        );
    }
    assert!(same_secret(b"abc", b"abc"));
    assert!(!same_secret(b"abd", b"abc"));
    assert!(!same_secret(b"ab", b"abc"));
    assert!(!same_secret(b"abcd", b"abc"));
    assert!(!same_secret(b"", b"abc"));
}

#[test]
fn media_types_are_exact() {
    let p = HttpPolicy::for_host("127.0.0.1", None).unwrap();
    for ct in [
        "application/json",
        "Application/JSON; charset=utf-8",
        " application/json ;charset=UTF-8",
    ] {
        assert_eq!(
            status(check_request(
                &req("POST", &[("content-type", ct)], false),
                &p
            )),
            200,
            "{ct}"
        );
    }
    for ct in [
        "application/jsonp",
        "application/json-seq",
        "text/json",
        "application/x-json",
        "",
    ] {
        assert_eq!(
            status(check_request(
                &req("POST", &[("content-type", ct)], false),
                &p
            )),
            415,
            "{ct}"
        );
    }
    for accept in ["text/html", "application/jsonp", "text/event-streams"] {
        assert_eq!(
            status(check_request(&post(&[("accept", accept)]), &p)),
            406,
            "{accept}"
        );
    }
}

#[test]
fn refused_posts_close_the_connection() {
    let p = HttpPolicy::for_host("127.0.0.1", None).unwrap();
    let closes = |d: HttpDecision| match d {
        HttpDecision::Reject { headers, .. } => headers
            .iter()
            .any(|(k, v)| k == "Connection" && v == "close"),
        _ => false,
    };
    assert!(closes(check_request(
        &post(&[("content-length", "2147483648")]),
        &p
    )));
    assert!(closes(check_request(
        &post(&[("content-length", "99999999999999999999999")]),
        &p
    )));
    assert!(closes(check_request(&post(&[("origin", "null")]), &p)));
    assert!(closes(check_body_size(p.max_body + 1, &p).unwrap()));
    assert!(!closes(check_request(
        &req("GET", &[("accept", "text/html")], false),
        &p
    )));
    assert_eq!(
        status(check_request(&post(&[("content-length", "1048576")]), &p)),
        200
    );
}

fn in_session(method: &str, id: &str) -> HttpRequest {
    let accept = if method == "GET" {
        "text/event-stream"
    } else {
        "application/json"
    };
    req(
        method,
        &[
            ("content-type", "application/json"),
            ("accept", accept),
            ("mcp-session-id", id),
        ],
        false,
    )
}

#[test]
fn sessions_expire_when_idle() {
    let p = HttpPolicy::for_host("127.0.0.1", None)
        .unwrap()
        .with_session_idle_ms(1_000);
    let mut g = Gate::new(p);
    assert_eq!(g.open_session("a", 0), Ok(vec![]));
    // busy with its initialize: never expires
    assert!(g.sweep(10_000).is_empty());
    g.finished("a", 10_000);
    let v = g.request(&in_session("POST", "a"), 10_500);
    assert_eq!(status(v.decision), 200);
    g.finished("a", 10_600);
    assert!(g.sweep(11_600).is_empty());
    assert!(g.is_live("a", 11_600));
    // past the idle time the id gets 404 and the host is told to close it
    let v = g.request(&in_session("POST", "a"), 11_601);
    assert_eq!(status(v.decision), 404);
    assert_eq!(v.close, vec!["a".to_string()]);
    assert!(g.is_empty());
    // an open stream does not keep a session alive: without requests
    // it expires, and its streams close with it
    g.open_session("b", 0).unwrap();
    g.finished("b", 0);
    assert_eq!(
        g.request(&in_session("GET", "b"), 1).decision,
        HttpDecision::OpenStream
    );
    assert!(g.sweep(1_001).is_empty());
    assert_eq!(g.sweep(1_002), vec!["b".to_string()]);
    // a request in progress does
    g.open_session("d", 0).unwrap();
    assert!(g.sweep(1_000_000).is_empty());
    g.finished("d", 1_000_000);
    assert_eq!(g.sweep(1_001_001), vec!["d".to_string()]);
    // a clock that goes back does not expire anything
    g.open_session("c", 5_000).unwrap();
    g.finished("c", 5_000);
    assert!(g.sweep(0).is_empty());
}

#[test]
fn a_full_table_evicts_the_least_recently_used_idle_session() {
    let p = HttpPolicy::for_host("127.0.0.1", None)
        .unwrap()
        .with_max_sessions(3);
    let mut g = Gate::new(p);
    for (i, id) in ["a", "b", "c"].iter().enumerate() {
        assert_eq!(g.open_session(id, i as u64), Ok(vec![]));
        g.finished(id, i as u64);
    }
    // "a" used last; "b" is the oldest idle one
    assert!(matches!(
        g.request(&in_session("POST", "a"), 10).decision,
        HttpDecision::ReadBody { .. }
    ));
    g.finished("a", 11);
    assert_eq!(g.open_session("d", 12), Ok(vec!["b".to_string()]));
    assert_eq!(g.len(), 3);
    // a session that only holds a stream gives way like any other idle
    // one (streams alone never keep new clients out)
    assert!(matches!(
        g.request(&in_session("POST", "a"), 13).decision,
        HttpDecision::ReadBody { .. }
    ));
    assert_eq!(
        g.request(&in_session("GET", "c"), 13).decision,
        HttpDecision::OpenStream
    );
    assert_eq!(g.open_session("e", 14), Ok(vec!["c".to_string()]));
    // sessions with requests in progress are never evicted: with all
    // busy, 503
    match g.open_session("e2", 14) {
        Err(HttpDecision::Reject {
            status, headers, ..
        }) => {
            assert_eq!(status, 503);
            assert!(headers.iter().any(|(k, _)| k == "Retry-After"));
        }
        other => panic!("{other:?}"),
    }
    // same clock reading: the order of use decides
    g.finished("d", 14);
    g.finished("e", 14);
    assert_eq!(g.open_session("f", 14), Ok(vec!["d".to_string()]));
}

#[test]
fn sessions_kept_only_by_their_streams_give_way_to_working_ones() {
    let p = HttpPolicy::for_host("127.0.0.1", None)
        .unwrap()
        .with_max_sessions(3);
    let mut g = Gate::new(p);
    // "held" opens a stream at 1 and never asks again; "w1" and "w2" work
    for (id, t) in [("held", 0), ("w1", 0), ("w2", 0)] {
        g.open_session(id, t).unwrap();
        g.finished(id, t);
    }
    assert_eq!(
        g.request(&in_session("GET", "held"), 1).decision,
        HttpDecision::OpenStream
    );
    for t in [50, 100] {
        for id in ["w1", "w2"] {
            assert_eq!(status(g.request(&in_session("POST", id), t).decision), 200);
            g.finished(id, t);
        }
    }
    // a new client: the session used least recently goes, stream or not
    assert_eq!(g.open_session("new", 101), Ok(vec!["held".to_string()]));
    g.finished("new", 101);
    // and a second one takes the working session used least recently
    assert_eq!(g.open_session("new2", 102), Ok(vec!["w1".to_string()]));
}

#[test]
fn streams_and_requests_per_session_are_bounded() {
    let p = HttpPolicy::for_host("127.0.0.1", None)
        .unwrap()
        .with_max_streams(2)
        .with_max_inflight(2);
    let mut g = Gate::new(p);
    g.open_session("s", 0).unwrap();
    g.finished("s", 0);
    assert_eq!(
        g.request(&in_session("GET", "s"), 1).decision,
        HttpDecision::OpenStream
    );
    assert_eq!(
        g.request(&in_session("GET", "s"), 1).decision,
        HttpDecision::OpenStream
    );
    assert_eq!(status(g.request(&in_session("GET", "s"), 1).decision), 409);
    g.stream_closed("s", 2);
    assert_eq!(
        g.request(&in_session("GET", "s"), 3).decision,
        HttpDecision::OpenStream
    );
    assert_eq!(status(g.request(&in_session("POST", "s"), 4).decision), 200);
    assert_eq!(status(g.request(&in_session("POST", "s"), 4).decision), 200);
    assert_eq!(status(g.request(&in_session("POST", "s"), 4).decision), 429);
    g.finished("s", 5);
    assert_eq!(status(g.request(&in_session("POST", "s"), 6).decision), 200);
    // DELETE ends the session and names it
    let v = g.request(&in_session("DELETE", "s"), 7);
    assert_eq!(v.decision, HttpDecision::EndSession);
    assert_eq!(v.close, vec!["s".to_string()]);
    assert_eq!(status(g.request(&in_session("POST", "s"), 8).decision), 404);
    // unknown ids change nothing
    g.finished("nope", 9);
    g.stream_closed("nope", 9);
    assert!(g.is_empty());
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

#[test]
fn cors_only_for_listed_origins() {
    let p = HttpPolicy::for_host("0.0.0.0", Some("t0k".into()))
        .unwrap()
        .with_origins(vec!["https://app.example/".into()]);
    let mut g = Gate::new(p.clone());
    let preflight = |origin: &str, asked: &str| {
        req(
            "OPTIONS",
            &[
                ("origin", origin),
                ("access-control-request-method", "POST"),
                ("access-control-request-headers", asked),
            ],
            false,
        )
    };
    // a preflight from a listed origin, without the token: the methods,
    // the fixed headers and each Mcp-Param-* asked for
    let v = g.request(
        &preflight(
            "https://APP.example",
            "content-type, authorization, mcp-param-zone, x-other, mcp-param-a\r\nb",
        ),
        0,
    );
    let HttpDecision::Options {
        status: code,
        headers,
    } = v.decision
    else {
        panic!("{:?}", v.decision)
    };
    assert_eq!(code, 204);
    assert_eq!(
        header(&headers, "access-control-allow-origin"),
        Some("https://APP.example")
    );
    assert_eq!(
        header(&headers, "access-control-allow-methods"),
        Some("GET, POST, DELETE")
    );
    let allowed = header(&headers, "access-control-allow-headers").unwrap_or("");
    for h in [
        "Mcp-Session-Id",
        "Mcp-Protocol-Version",
        "Authorization",
        "Content-Type",
        "Last-Event-ID",
        "Mcp-Method",
        "Mcp-Name",
        "mcp-param-zone",
    ] {
        assert!(allowed.split(", ").any(|a| a == h), "{h} in {allowed}");
    }
    assert!(!allowed.contains("x-other") && !allowed.contains("a\r"));
    assert!(header(&headers, "vary").is_some_and(|v| v.contains("Origin")));
    assert!(v.cors.is_empty());
    // a loopback origin passes the gate but gets no CORS; a foreign one is refused
    for origin in ["http://localhost:5173", "http://[::1]:3000"] {
        let d = check_request(&preflight(origin, ""), &p);
        let HttpDecision::Options { headers, .. } = d else {
            panic!("{d:?}")
        };
        assert_eq!(header(&headers, "access-control-allow-origin"), None);
        assert_eq!(
            header(&headers, "allow"),
            Some("GET, POST, DELETE, OPTIONS")
        );
    }
    assert_eq!(
        status(check_request(&preflight("https://evil.example", ""), &p)),
        403
    );
    // every answer to a listed origin carries the CORS headers, a refusal too
    let from = |origin: &str, token: &str| {
        let auth = format!("Bearer {token}");
        req(
            "POST",
            &[
                ("content-type", "application/json"),
                ("origin", origin),
                ("authorization", &auth),
            ],
            false,
        )
    };
    for token in ["t0k", "wrong"] {
        let v = g.request(&from("https://app.example", token), 1);
        assert_eq!(
            header(&v.cors, "access-control-allow-origin"),
            Some("https://app.example")
        );
        assert_eq!(
            header(&v.cors, "access-control-expose-headers"),
            Some("Mcp-Session-Id")
        );
        assert_eq!(header(&v.cors, "vary"), Some("Origin"));
    }
    assert!(g
        .request(&from("http://127.0.0.1:8080", "t0k"), 2)
        .cors
        .is_empty());
    assert!(g.request(&bearer_post("t0k"), 3).cors.is_empty());
    let refused = g.request(&from("https://evil.example", "t0k"), 4);
    assert_eq!((status(refused.decision), refused.cors.len()), (403, 0));
    // `*` lists every http(s) origin, never the opaque `null`
    g.set_origins(vec!["*".into()]);
    let any = g.request(&from("https://any.example", "t0k"), 5);
    assert_eq!(
        header(&any.cors, "access-control-allow-origin"),
        Some("https://any.example")
    );
    assert!(g.request(&from("null", "t0k"), 6).cors.is_empty());
    // the origin list changes take effect at once
    g.set_origins(Vec::new());
    let gone = g.request(&preflight("https://app.example", ""), 7);
    assert_eq!(status(gone.decision), 403);
}

fn bearer_post(token: &str) -> HttpRequest {
    let auth = format!("Bearer {token}");
    req(
        "POST",
        &[
            ("content-type", "application/json"),
            ("authorization", &auth),
        ],
        false,
    )
}

fn events(g: &mut Gate) -> Vec<GateEvent> {
    std::iter::from_fn(|| g.poll_event()).collect()
}

#[test]
fn failed_logins_lock_out_their_address_for_a_window() {
    let p = HttpPolicy::for_host("0.0.0.0", Some("right".into()))
        .unwrap()
        .with_auth_limit(3, 10_000);
    let mut g = Gate::new(p);
    let wrong = bearer_post("wrong");
    let right = bearer_post("right");
    // failures outside one window do not add up
    assert_eq!(status(g.request_from(&wrong, Some("a"), 0).decision), 401);
    assert_eq!(status(g.request_from(&wrong, Some("a"), 1).decision), 401);
    assert_eq!(
        status(g.request_from(&wrong, Some("a"), 10_002).decision),
        401
    );
    assert_eq!(
        status(g.request_from(&right, Some("a"), 10_003).decision),
        200
    );
    assert_eq!(
        status(g.request_from(&wrong, Some("a"), 10_004).decision),
        401
    );
    assert_eq!(
        status(g.request_from(&wrong, Some("a"), 10_005).decision),
        401
    );
    // the third failure in the window locks the address out, even with the right token
    let v = g.request_from(&right, Some("a"), 10_006);
    match v.decision {
        HttpDecision::Reject {
            status, headers, ..
        } => {
            assert_eq!(status, 429);
            assert!(headers.contains(&("Retry-After".into(), "10".into())));
            assert!(headers.contains(&("Connection".into(), "close".into())));
        }
        d => panic!("{d:?}"),
    }
    // other addresses, and callers that name none, are not affected
    assert_eq!(
        status(g.request_from(&right, Some("b"), 10_007).decision),
        200
    );
    assert_eq!(status(g.request(&right, 10_007).decision), 200);
    // the host reads who is locked out, and until when
    let _ = g.request_from(&wrong, Some("c"), 10_007);
    assert_eq!(
        g.lockouts(10_007),
        vec![Lockout {
            remote: "a".into(),
            until_ms: 20_005,
            retry_after_s: 10
        }]
    );
    assert_eq!(g.lockouts(20_004)[0].retry_after_s, 1);
    assert!(g.lockouts(20_005).is_empty());
    // the lock-out lasts a window from the last failure
    assert_eq!(
        status(g.request_from(&right, Some("a"), 20_004).decision),
        429
    );
    assert_eq!(
        status(g.request_from(&right, Some("a"), 20_005).decision),
        200
    );
    assert_eq!(
        status(g.request_from(&wrong, Some("a"), 20_006).decision),
        401
    );
    let stats = g.stats();
    assert_eq!(
        (
            stats.requests,
            stats.refused,
            stats.auth_failures,
            stats.login_limited
        ),
        (13, 9, 7, 2)
    );
    let ev = events(&mut g);
    assert_eq!(
        ev.first(),
        Some(&GateEvent::AuthRefused {
            remote: Some("a".into()),
            failures: 1
        })
    );
    assert!(ev.contains(&GateEvent::LoginLimited {
        remote: "a".into(),
        retry_after_s: 10
    }));
    // a sweep forgets records whose window is over
    assert!(g.sweep(40_000).is_empty());
    assert!(g.logins.is_empty());
}

#[test]
fn the_failed_login_table_is_bounded() {
    let p = HttpPolicy::for_host("0.0.0.0", Some("right".into()))
        .unwrap()
        .with_auth_limit(2, 60_000);
    let mut g = Gate::new(p);
    let wrong = bearer_post("wrong");
    for i in 0..MAX_TRACKED_ADDRESSES + 10 {
        let v = g.request_from(&wrong, Some(&format!("10.0.{}.{}", i / 256, i % 256)), 1);
        assert_eq!(status(v.decision), 401);
    }
    assert_eq!(g.logins.len(), MAX_TRACKED_ADDRESSES);
    assert_eq!(g.events.len(), MAX_EVENTS);
}

#[test]
fn token_and_origins_change_without_dropping_sessions() {
    let p = HttpPolicy::for_host("0.0.0.0", Some("old".into())).unwrap();
    let mut g = Gate::new(p);
    g.open_session("s", 0).unwrap();
    g.finished("s", 0);
    assert!(g.set_token(None).is_err());
    assert!(g.set_token(Some(String::new())).is_err());
    g.set_token(Some("new".into())).unwrap();
    assert_eq!(status(g.request(&bearer_post("old"), 1).decision), 401);
    assert_eq!(status(g.request(&bearer_post("new"), 1).decision), 200);
    assert!(g.is_live("s", 2));
    let mut from_app = bearer_post("new");
    from_app
        .headers
        .push(("origin".into(), "http://app.example".into()));
    assert_eq!(status(g.request(&from_app, 3).decision), 403);
    g.set_origins(vec!["http://app.example".into()]);
    assert_eq!(status(g.request(&from_app, 4).decision), 200);
    // a loopback gateway may drop its token
    let mut local = Gate::new(HttpPolicy::for_host("127.0.0.1", Some("t".into())).unwrap());
    local.set_token(None).unwrap();
    assert_eq!(
        status(
            local
                .request(
                    &req("POST", &[("content-type", "application/json")], false),
                    0
                )
                .decision
        ),
        200
    );
}

#[test]
fn session_events_say_what_happened() {
    let p = HttpPolicy::for_host("127.0.0.1", None)
        .unwrap()
        .with_max_sessions(1)
        .with_session_idle_ms(100);
    let mut g = Gate::new(p);
    g.open_session("a", 0).unwrap();
    g.finished("a", 0);
    g.open_session("b", 1).unwrap();
    g.finished("b", 1);
    assert_eq!(
        g.request(&in_session("DELETE", "b"), 2).decision,
        HttpDecision::EndSession
    );
    g.open_session("c", 3).unwrap();
    g.finished("c", 3);
    assert_eq!(g.sweep(200), vec!["c".to_string()]);
    let ev = events(&mut g);
    let id = |s: &str| s.to_string();
    assert_eq!(
        ev,
        vec![
            GateEvent::SessionOpened { id: id("a") },
            GateEvent::SessionEvicted { id: id("a") },
            GateEvent::SessionOpened { id: id("b") },
            GateEvent::SessionEnded { id: id("b") },
            GateEvent::SessionOpened { id: id("c") },
            GateEvent::SessionExpired { id: id("c") },
        ]
    );
    let s = g.stats();
    assert_eq!(
        (
            s.sessions_opened,
            s.sessions_evicted,
            s.sessions_ended,
            s.sessions_expired
        ),
        (3, 1, 1, 1)
    );
}

#[test]
fn compressed_bodies_are_refused_clearly() {
    let p = HttpPolicy::for_host("127.0.0.1", None).unwrap();
    for coding in ["gzip", "gzip, gzip", "br", "x-custom"] {
        match check_request(&post(&[("content-encoding", coding)]), &p) {
            HttpDecision::Reject {
                status, message, ..
            } => {
                assert_eq!(status, 415, "{coding}");
                assert!(message.contains(coding), "{message}");
            }
            d => panic!("{coding}: {d:?}"),
        }
    }
    for coding in ["identity", "", " identity , "] {
        assert_eq!(
            status(check_request(&post(&[("content-encoding", coding)]), &p)),
            200,
            "{coding:?}"
        );
    }
}

#[test]
fn half_open_connections_give_way_and_addresses_are_capped() {
    let p = HttpPolicy::for_host("127.0.0.1", None)
        .unwrap()
        .with_max_connections(4)
        .with_max_connections_per_address(2);
    let mut g = Gate::new(p);
    // an attacker's two connections send nothing
    assert!(g.connection_opened(1, Some("10.0.0.66")).accept);
    assert!(g.connection_opened(2, Some("10.0.0.66")).accept);
    // its third makes room by closing its own oldest half-open one
    let v = g.connection_opened(3, Some("10.0.0.66"));
    assert_eq!((v.accept, v.close), (true, Some(1)));
    g.connection_closed(1);
    // a client whose connections all sent requests keeps them: its
    // next one is refused
    let mut c = Gate::new(g.policy().clone());
    assert!(c.connection_opened(1, Some("a")).accept);
    assert!(c.connection_opened(2, Some("a")).accept);
    c.connection_request(1);
    c.connection_request(2);
    let v = c.connection_opened(3, Some("a"));
    assert_eq!((v.accept, v.close), (false, None));
    assert_eq!(c.stats().connections_refused, 1);
    // other addresses fill the table; past it the half-open
    // connections go first, oldest first, never ones that sent a request
    assert!(g.connection_opened(4, Some("b")).accept);
    assert!(g.connection_opened(5, Some("c")).accept);
    g.connection_request(4);
    g.connection_request(5);
    assert_eq!(g.connections(), 4);
    let v = g.connection_opened(6, Some("d"));
    assert_eq!((v.accept, v.close), (true, Some(2)));
    let v = g.connection_opened(7, Some("e"));
    assert_eq!((v.accept, v.close), (true, Some(3)));
    g.connection_request(6);
    g.connection_request(7);
    let v = g.connection_opened(8, Some("f"));
    assert!(!v.accept && v.close.is_none());
    assert_eq!(g.stats().connections_evicted, 3);
    // closed connections are forgotten, their address's count with them
    for id in [4, 5, 6, 7] {
        g.connection_closed(id);
    }
    assert_eq!(g.connections(), 0);
    assert!(g.connection_opened(9, Some("10.0.0.66")).accept);
    assert!(g.connection_opened(10, Some("10.0.0.66")).accept);
    // no address known: only the table's limit applies
    for id in 11..13 {
        assert!(g.connection_opened(id, None).accept);
    }
    assert_eq!(g.connection_opened(13, None).close, Some(9));
}

#[test]
fn requests_without_a_session_are_capped() {
    let p = HttpPolicy::for_host("127.0.0.1", None)
        .unwrap()
        .with_stateless_limits(1, 2);
    let mut g = Gate::new(p);
    let id = serde_json::json!(5);
    assert!(g.stateless_started(1, true, &id).is_ok());
    match g.stateless_started(2, true, &id) {
        Err(BodyDecision::Refuse { status, body }) => {
            assert_eq!(status, 503);
            assert!(
                body.contains(r#""id":5"#) && body.contains("subscriptions/listen"),
                "{body}"
            );
        }
        d => panic!("{d:?}"),
    }
    // streams and calls are counted apart
    assert!(g.stateless_started(3, false, &id).is_ok());
    assert!(g.stateless_started(4, false, &id).is_ok());
    assert!(g.stateless_started(5, false, &id).is_err());
    g.stateless_ended(3);
    assert!(g.stateless_started(5, false, &id).is_ok());
    g.stateless_ended(1);
    assert!(g.stateless_started(6, true, &id).is_ok());
    // unknown or repeated ends change nothing
    g.stateless_ended(1);
    g.stateless_ended(99);
    assert!(g.stateless_started(7, true, &id).is_err());
    assert_eq!(g.stats().stateless_refused, 3);
}
