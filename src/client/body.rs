//! Reading one HTTP reply body as it arrives: a JSON body gathered whole
//! (under the reply limit) and read at its end, or an event stream read
//! event by event, whatever the chunks' boundaries (UTF-8 sequences split
//! across chunks included).

use serde_json::Value;

use super::{ReplyBody, SseEvent, SseParser};
use crate::error::{Error, ErrorKind};

/// What a body gave so far.
#[derive(Debug, Default)]
pub(crate) struct Read {
    /// JSON-RPC messages, in order.
    pub(crate) messages: Vec<Value>,
    /// The legacy transport's `endpoint` event, when one came.
    pub(crate) endpoint: Option<String>,
}

#[derive(Debug)]
pub(crate) enum BodyReader {
    Json(ReplyBody),
    Sse {
        parser: SseParser,
        /// The bytes of a UTF-8 sequence cut by the end of a chunk.
        pending: Vec<u8>,
    },
}

impl BodyReader {
    /// A reader for a reply of `content_type`: an event stream, or JSON.
    pub(crate) fn new(content_type: &str, limit: usize) -> BodyReader {
        if content_type
            .to_ascii_lowercase()
            .contains("text/event-stream")
        {
            BodyReader::Sse {
                parser: SseParser::with_limit(limit),
                pending: Vec::new(),
            }
        } else {
            BodyReader::Json(ReplyBody::new(limit))
        }
    }

    /// Feeds a chunk: the messages of the events it completed (nothing for
    /// a JSON body until [`BodyReader::finish`]).
    pub(crate) fn push(&mut self, chunk: &[u8]) -> Result<Read, Error> {
        match self {
            BodyReader::Json(body) => {
                body.push(chunk)?;
                Ok(Read::default())
            }
            BodyReader::Sse { parser, pending } => {
                pending.extend_from_slice(chunk);
                let text = match std::str::from_utf8(pending) {
                    Ok(t) => t.to_string(),
                    Err(e) if e.error_len().is_none() => {
                        // a sequence cut at the end: keep its bytes for the next chunk
                        let cut = e.valid_up_to();
                        let head =
                            String::from_utf8_lossy(pending.get(..cut).unwrap_or(&[])).into_owned();
                        let tail = pending.get(cut..).unwrap_or(&[]).to_vec();
                        *pending = tail;
                        let events = parser.push(&head)?;
                        return events_read(events);
                    }
                    Err(e) => {
                        return Err(Error::new(
                            ErrorKind::Json,
                            "",
                            format!(
                                "the event stream is not UTF-8 (at byte {})",
                                e.valid_up_to()
                            ),
                        ))
                    }
                };
                pending.clear();
                events_read(parser.push(&text)?)
            }
        }
    }

    /// The body ended: what was left.
    pub(crate) fn finish(&mut self, content_type: &str) -> Result<Read, Error> {
        match self {
            BodyReader::Json(body) => {
                if body.is_empty() {
                    return Ok(Read::default());
                }
                Ok(Read {
                    messages: body.messages(content_type)?,
                    endpoint: None,
                })
            }
            BodyReader::Sse { parser, .. } => events_read(parser.finish()),
        }
    }
}

fn events_read(events: Vec<SseEvent>) -> Result<Read, Error> {
    let mut read = Read::default();
    for e in events {
        let data = e.data.trim();
        if data.is_empty() {
            continue;
        }
        match e.event.as_str() {
            "endpoint" => read.endpoint = Some(data.to_string()),
            "message" => {
                let v: Value = serde_json::from_str(data).map_err(|err| {
                    Error::new(
                        ErrorKind::Json,
                        "",
                        format!("an SSE event is not JSON: {err}"),
                    )
                })?;
                match v {
                    Value::Array(batch) => read.messages.extend(batch),
                    one => read.messages.push(one),
                }
            }
            _ => {}
        }
    }
    Ok(read)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_split_across_chunks() {
        let stream = "data: {\"t\":\"é😀\"}\n\n".as_bytes();
        for cut in 1..stream.len() {
            let mut r = BodyReader::new("text/event-stream", 1024);
            let (a, b) = stream.split_at(cut);
            let mut got = r.push(a).unwrap().messages;
            got.extend(r.push(b).unwrap().messages);
            got.extend(r.finish("text/event-stream").unwrap().messages);
            assert_eq!(got, vec![serde_json::json!({"t": "é😀"})], "cut at {cut}");
        }
        let mut r = BodyReader::new("text/event-stream", 1024);
        assert!(r.push(&[0xff, b'\n']).is_err());
    }

    #[test]
    fn json_at_the_end_and_endpoints() {
        let mut r = BodyReader::new("application/json", 64);
        assert!(r.push(b"{\"id\":").unwrap().messages.is_empty());
        r.push(b"1}").unwrap();
        assert_eq!(r.finish("application/json").unwrap().messages.len(), 1);
        assert!(r.push(&[b' '; 80]).is_err());
        let mut r = BodyReader::new("text/event-stream", 64);
        let read = r
            .push(b"event: endpoint\ndata: /m?s=1\n\nevent: ping\ndata: x\n\n")
            .unwrap();
        assert_eq!(read.endpoint.as_deref(), Some("/m?s=1"));
        assert!(read.messages.is_empty());
    }
}
