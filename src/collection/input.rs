//! The files of a crawl as records: site folders, WARC / WARC.gz files
//! (read with the `warc` crate; HTTP heads with `httparse`) and JSONL lines
//! `{"url": …, "html": …}`. File-system glue only: a record is bytes with
//! a URL and a site; what a page is and what its template is are decided by
//! `collection`.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use serde::Deserialize;
use url::Url;
use warc::{RecordType, WarcHeader, WarcReader};

use crate::collection::rejection::Rejection;
use crate::sources::file_urls::url_of_file;
use crate::sources::site_folder::ORIGIN;

/// One page as read from an input, before any check.
#[derive(Clone)]
pub struct Record {
    /// The site the page belongs to: its origin, or the folder it came from.
    pub site: String,
    pub url: Url,
    pub body: Vec<u8>,
    pub content_type: Option<String>,
}

/// A record, or why one was left out before it had a site.
pub type Item = Result<Record, Rejection>;

/// What kind of input a path is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Folder(PathBuf),
    Warc(PathBuf),
    Jsonl(PathBuf),
}

impl Input {
    /// Classifies a path by what it is and how it is named, or says in a
    /// sentence why it cannot be read.
    pub fn of(path: &Path) -> Result<Input, String> {
        if path.is_dir() {
            return Ok(Input::Folder(path.to_path_buf()));
        }
        if !path.is_file() {
            return Err(format!("{} does not exist.", path.display()));
        }
        let name = path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
        if name.ends_with(".warc") || name.ends_with(".warc.gz") {
            Ok(Input::Warc(path.to_path_buf()))
        } else if name.ends_with(".jsonl") || name.ends_with(".ndjson") {
            Ok(Input::Jsonl(path.to_path_buf()))
        } else {
            Err(format!(
                "{} is neither a site folder, a WARC file (.warc, .warc.gz) nor a JSONL file (.jsonl).",
                path.display()
            ))
        }
    }

    /// The input's records, read lazily.
    pub fn records(&self) -> Result<Box<dyn Iterator<Item = Item> + Send>, String> {
        match self {
            Input::Folder(dir) => Ok(Box::new(folder_records(dir))),
            Input::Warc(file) => warc_records(file),
            Input::Jsonl(file) => jsonl_records(file),
        }
    }
}

/// Every `.html`, `.htm` and `.xhtml` file of a folder, as pages of one
/// site mounted at the site folder origin (as `tex extract` mounts it), each
/// at its file's URL (`index.html?lang=es.html` at `index.html%3Flang=es.html`,
/// [`url_of_file`]); the site is the folder's path, since every folder
/// shares that origin.
fn folder_records(dir: &Path) -> impl Iterator<Item = Item> + Send {
    let site = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf()).display().to_string();
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if matches!(
                p.extension().and_then(|x| x.to_str()).map(str::to_ascii_lowercase).as_deref(),
                Some("html" | "htm" | "xhtml")
            ) {
                files.push(p);
            }
        }
    }
    files.sort();
    let origin = Url::parse(ORIGIN).expect("valid origin");
    let root = dir.to_path_buf();
    files.into_iter().map(move |file| {
        let relative: Vec<String> = file
            .strip_prefix(&root)
            .unwrap_or(&file)
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let url = url_of_file(&origin, &relative.join("/")).ok_or(Rejection::BadUrl)?;
        let body = read_at_most(&file).map_err(|_| Rejection::Truncated)?;
        Ok(Record { site: site.clone(), url, body, content_type: None })
    })
}

/// A file's bytes, one byte past the page limit at most (enough to refuse it).
fn read_at_most(file: &Path) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    File::open(file)?.take(crate::page::page_body::MAX_PAGE_BYTES as u64 + 1).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The site of a URL: its origin.
pub fn site_of(url: &Url) -> String {
    url.origin().ascii_serialization()
}

fn web_url(text: &str) -> Result<Url, Rejection> {
    let url = Url::parse(text.trim().trim_start_matches('<').trim_end_matches('>')).map_err(|_| Rejection::BadUrl)?;
    if matches!(url.scheme(), "http" | "https") && url.host().is_some() {
        Ok(url)
    } else {
        Err(Rejection::BadUrl)
    }
}

#[derive(Deserialize)]
struct JsonlPage {
    url: String,
    html: String,
}

fn jsonl_records(file: &Path) -> Result<Box<dyn Iterator<Item = Item> + Send>, String> {
    let f = File::open(file).map_err(|e| format!("Cannot read {}: {e}.", file.display()))?;
    Ok(Box::new(BufReader::new(f).split(b'\n').filter_map(|line| {
        let line = match line {
            Ok(l) => l,
            Err(_) => return Some(Err(Rejection::Truncated)),
        };
        if line.iter().all(u8::is_ascii_whitespace) {
            return None;
        }
        let Ok(page) = serde_json::from_slice::<JsonlPage>(&line) else { return Some(Err(Rejection::MalformedRecord)) };
        Some(web_url(&page.url).map(|url| Record {
            site: site_of(&url),
            url,
            body: page.html.into_bytes(),
            content_type: None,
        }))
    })))
}

fn warc_records(file: &Path) -> Result<Box<dyn Iterator<Item = Item> + Send>, String> {
    let cannot = |e: std::io::Error| format!("Cannot read {}: {e}.", file.display());
    let mut magic = [0u8; 2];
    let gzip = File::open(file).and_then(|mut f| f.read(&mut magic)).map_err(cannot)? == 2 && magic == [0x1f, 0x8b];
    if gzip {
        let reader = WarcReader::from_path_gzip(file).map_err(cannot)?;
        Ok(Box::new(warc_items(reader)))
    } else {
        let reader = WarcReader::new(BufReader::with_capacity(1 << 20, File::open(file).map_err(cannot)?));
        Ok(Box::new(warc_items(reader)))
    }
}

/// The response and resource records of a WARC stream as items. A record
/// the parser cannot read ends the file: the reader cannot find the next
/// record boundary after a broken one, so guessing would invent records.
fn warc_items<R: BufRead + Send>(reader: WarcReader<R>) -> impl Iterator<Item = Item> + Send {
    let mut records = reader.iter_records();
    let mut broken = false;
    std::iter::from_fn(move || loop {
        if broken {
            return None;
        }
        match records.next()? {
            Err(e) => {
                broken = true;
                return Some(Err(match e {
                    warc::Error::UnexpectedEOB => Rejection::Truncated,
                    _ => Rejection::MalformedRecord,
                }));
            }
            Ok(record) => {
                let kind = record.warc_type().clone();
                if !matches!(kind, RecordType::Response | RecordType::Resource) {
                    continue;
                }
                return Some(warc_page(&record, kind == RecordType::Response));
            }
        }
    })
}

fn warc_page(record: &warc::Record<warc::BufferedBody>, http: bool) -> Item {
    let url = web_url(&record.header(WarcHeader::TargetURI).ok_or(Rejection::BadUrl)?)?;
    if record.truncated_type().is_some() {
        return Err(Rejection::Truncated);
    }
    let (body, content_type) = if http {
        http_body(record.body())?
    } else {
        (record.body().to_vec(), record.header(WarcHeader::ContentType).map(|c| c.into_owned()))
    };
    Ok(Record { site: site_of(&url), url, body, content_type })
}

/// The body and Content-Type of a captured HTTP response with status 200.
fn http_body(message: &[u8]) -> Result<(Vec<u8>, Option<String>), Rejection> {
    let mut headers = [httparse::EMPTY_HEADER; 128];
    let mut response = httparse::Response::new(&mut headers);
    let head = match response.parse(message) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) => return Err(Rejection::Truncated),
        Err(_) => return Err(Rejection::BadHttp),
    };
    if response.code != Some(200) {
        return Err(Rejection::HttpStatus);
    }
    let header = |name: &str| {
        response
            .headers
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(name))
            .map(|h| String::from_utf8_lossy(h.value).into_owned())
    };
    let body = &message[head..];
    let body = match header("transfer-encoding") {
        Some(te) if te.to_ascii_lowercase().contains("chunked") => dechunk(body)?,
        _ => body.to_vec(),
    };
    Ok((body, Some(header("content-type").unwrap_or_else(|| "text/html".to_string()))))
}

/// A body whose header says `Transfer-Encoding: chunked`, de-chunked as
/// warcio does: crawlers often store the body already de-chunked under the
/// original header, so where a chunk-size line cannot be read, or a chunk
/// does not end in CR LF, the bytes from that line on are taken as they
/// are (the whole body when its first chunk is not one). A body that ends
/// at a chunk's end without the last chunk is kept; a chunk after the
/// first cut short is `truncated`.
fn dechunk(whole: &[u8]) -> Result<Vec<u8>, Rejection> {
    let mut out = Vec::with_capacity(whole.len());
    let mut body = whole;
    loop {
        let Some((size, data)) = chunk_head(body) else {
            out.extend_from_slice(body);
            return Ok(out);
        };
        if size == 0 {
            return Ok(out);
        }
        let Some(chunk) = data.get(..size) else {
            if out.is_empty() {
                return Ok(whole.to_vec());
            }
            return Err(Rejection::Truncated);
        };
        match data.get(size..size + 2) {
            Some(b"\r\n") => body = &data[size + 2..],
            // The body ends with this chunk's data.
            None => body = &[],
            // Not chunked after all, from this line on.
            Some(_) => {
                out.extend_from_slice(body);
                return Ok(out);
            }
        }
        out.extend_from_slice(chunk);
    }
}

/// A chunk's size and what follows its size line, `None` when the body
/// does not start with a chunk-size line (hex digits, an optional
/// extension after `;`, CR LF) or there is nothing left.
fn chunk_head(body: &[u8]) -> Option<(usize, &[u8])> {
    let line_end = body.iter().take(64).position(|&b| b == b'\n')?;
    let line = body[..line_end].strip_suffix(b"\r")?;
    let size = std::str::from_utf8(line).ok()?.split(';').next()?.trim();
    if size.is_empty() || !size.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let size = usize::from_str_radix(size, 16).ok().filter(|&n| n <= 1 << 31)?;
    Some((size, &body[line_end + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn http_heads_are_read_and_chunked_bodies_joined() {
        let (body, ct) =
            http_body(b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>x</p>").unwrap();
        assert_eq!((body.as_slice(), ct.as_deref()), (b"<p>x</p>".as_slice(), Some("text/html; charset=utf-8")));
        let (body, _) = http_body(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n<p>\r\n4\r\nx</p\r\n1\r\n>\r\n0\r\n\r\n",
        )
        .unwrap();
        assert_eq!(body, b"<p>x</p>");
        assert_eq!(http_body(b"HTTP/1.1 404 Not Found\r\n\r\n").err(), Some(Rejection::HttpStatus));
        assert_eq!(http_body(b"HTTP/1.1 200 OK\r\nContent-Ty").err(), Some(Rejection::Truncated));
        assert_eq!(http_body(b"\x00\x01 garbage\r\n\r\n").err(), Some(Rejection::BadHttp));
    }

    #[test]
    fn a_chunked_header_over_a_body_stored_de_chunked_keeps_the_body() {
        let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
        let (body, _) = http_body(format!("{head}<!doctype html><p>x</p>\r\n").as_bytes()).unwrap();
        assert_eq!(body, b"<!doctype html><p>x</p>\r\n");
        // A first line that reads as a chunk size but runs past the body.
        let (body, _) = http_body(format!("{head}cafe\r\n<p>x</p>").as_bytes()).unwrap();
        assert_eq!(body, b"cafe\r\n<p>x</p>");
        // Chunked, then not: the rest from that line on, as it is.
        assert_eq!(dechunk(b"3\r\n<p>\r\nx</p>").unwrap(), b"<p>x</p>");
        // Ends with a chunk, without the last one.
        assert_eq!(dechunk(b"3\r\n<p>\r\n4\r\nx</p").unwrap(), b"<p>x</p");
        // A later chunk cut short.
        assert_eq!(dechunk(b"3\r\n<p>\r\n9\r\nx</p").err(), Some(Rejection::Truncated));
    }

    #[test]
    fn only_web_urls_name_pages() {
        assert!(web_url("<https://a.test/x>").is_ok());
        assert_eq!(web_url("file:///etc/passwd").err(), Some(Rejection::BadUrl));
        assert_eq!(web_url("not a url").err(), Some(Rejection::BadUrl));
    }
}
