//! The files of a crawl as records: site folders, WARC / WARC.gz files
//! (read with the `warc` crate; HTTP heads with `httparse`) and JSONL lines
//! `{"url": …, "html": …}`. File-system glue only: a record is bytes with
//! a URL and a site; what a page is and what its template is are decided by
//! `collection`.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use thiserror::Error;
use url::Url;
use warc::{RecordType, WarcHeader, WarcReader};

use crate::candidates::address::normal_url;
use crate::collection::page_admission::is_html_type;
use crate::collection::rejection::{Rejection, Rejections};
use crate::page::page_body::invalid_utf8_bytes;
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
    /// Bytes already replaced by U+FFFD before the body was taken (a JSONL
    /// line that is not valid UTF-8 is decoded to be parsed); counted as
    /// the page's own invalid bytes are.
    pub replaced_bytes: usize,
}

/// What an input gives, in order: pages, records left out before they had
/// a site, damage to a file that was otherwise read, or, as its only item,
/// why nothing at all could be read from it.
pub enum Item {
    Page(Record),
    Left(Rejection),
    Damaged(Damage),
    Unread(InputError),
}

impl Item {
    /// The page, if this item is one.
    pub fn page(self) -> Option<Record> {
        match self {
            Item::Page(r) => Some(r),
            _ => None,
        }
    }
}

/// Why an input gave no record at all: one sentence naming the file.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum InputError {
    #[error("{} does not exist.", .0.display())]
    Missing(PathBuf),
    #[error("{} is neither a site folder, a WARC file (.warc, .warc.gz) nor a JSONL file (.jsonl).", .0.display())]
    UnknownKind(PathBuf),
    #[error("Cannot read {}: {reason}.", path.display())]
    Unreadable { path: PathBuf, reason: String },
    #[error("{} is empty.", .0.display())]
    Empty(PathBuf),
    #[error("{} holds no .html, .htm or .xhtml file.", .0.display())]
    NoHtmlFiles(PathBuf),
    #[error("{} is not a readable gzip file ({reason}).", path.display())]
    BadGzip { path: PathBuf, reason: String },
    #[error(
        "{} is not a WARC file: it does not begin with a WARC/1.0 or WARC/1.1 line{}.",
        path.display(),
        if *named_gz { " (it is named .gz but is not gzip-compressed)" } else { "" }
    )]
    NotWarc { path: PathBuf, named_gz: bool },
    #[error(
        "{} cannot be read as WARC: its header lines end in LF only, where WARC requires CR LF, so its records cannot be found.",
        .0.display()
    )]
    LfOnly(PathBuf),
    #[error("{}: its first WARC record could not be read ({reason}), so none of its records were.", path.display())]
    FirstRecord { path: PathBuf, reason: String },
    #[error("{} holds no WARC response record nor HTML resource record ({records} records of other kinds).", path.display())]
    NoPages { path: PathBuf, records: usize },
    #[error("{} holds no line {{\"url\": …, \"html\": …}}: line {first_bad} is the first of its lines that is not one.", path.display())]
    NoJsonlPage { path: PathBuf, first_bad: usize },
}

/// What broke in an input that was otherwise read: one sentence naming the
/// file and where. Each also counts as a record left out
/// ([`Damage::rejection`]).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum Damage {
    #[error(
        "{}, line {line}: not a JSON object with url and html strings; that line was left out, the file's other lines were read.",
        path.display()
    )]
    JsonlLine { path: PathBuf, line: usize },
    #[error(
        "{}: WARC record {index} could not be read ({reason}); the rest of the file was skipped, since the next record cannot be found.",
        path.display()
    )]
    WarcRecord { path: PathBuf, index: usize, reason: String },
    #[error("{} ends inside WARC record {index} (the file is cut short); the records before it were read.", path.display())]
    Cut { path: PathBuf, index: usize },
}

impl Damage {
    /// The reason the broken record is counted under.
    pub fn rejection(&self) -> Rejection {
        match self {
            Damage::Cut { .. } => Rejection::Truncated,
            Damage::JsonlLine { .. } | Damage::WarcRecord { .. } => Rejection::MalformedRecord,
        }
    }
}

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
    pub fn of(path: &Path) -> Result<Input, InputError> {
        if path.is_dir() {
            return Ok(Input::Folder(path.to_path_buf()));
        }
        if !path.is_file() {
            return Err(InputError::Missing(path.to_path_buf()));
        }
        let name = path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
        if name.ends_with(".warc") || name.ends_with(".warc.gz") {
            Ok(Input::Warc(path.to_path_buf()))
        } else if name.ends_with(".jsonl") || name.ends_with(".ndjson") {
            Ok(Input::Jsonl(path.to_path_buf()))
        } else {
            Err(InputError::UnknownKind(path.to_path_buf()))
        }
    }

    /// The file or folder.
    pub fn path(&self) -> &Path {
        match self {
            Input::Folder(p) | Input::Warc(p) | Input::Jsonl(p) => p,
        }
    }

    /// The input's records, read lazily, or why none can be.
    pub fn records(&self) -> Result<Box<dyn Iterator<Item = Item> + Send>, InputError> {
        match self {
            Input::Folder(dir) => folder_records(dir),
            Input::Warc(file) => warc_records(file),
            Input::Jsonl(file) => jsonl_records(file),
        }
    }
}

/// What one input gave, once read.
#[derive(Debug, Default)]
pub struct InputOutcome {
    /// Why nothing of it could be read.
    pub unread: Option<InputError>,
    /// What broke in it, the first [`DAMAGE_TOLD`] in order.
    pub damage: Vec<Damage>,
    /// How much more broke beyond those.
    pub more_damage: usize,
}

/// How many damaged places of one input are told one by one.
pub const DAMAGE_TOLD: usize = 5;

/// Reads every input in order: each page to `page`, each record left out
/// before it had a site (damage included) into `left`; what each input
/// gave. Reading stops, before the next input too, once `page` breaks.
pub fn read_inputs(
    inputs: &[Input],
    left: &mut Rejections,
    page: &mut dyn FnMut(Record) -> ControlFlow<()>,
) -> Vec<InputOutcome> {
    let mut outcomes = Vec::new();
    for input in inputs {
        let mut outcome = InputOutcome::default();
        let mut stopped = false;
        match input.records() {
            Err(e) => outcome.unread = Some(e),
            Ok(items) => {
                for item in items {
                    match item {
                        Item::Page(r) => {
                            if page(r).is_break() {
                                stopped = true;
                                break;
                            }
                        }
                        Item::Left(reason) => left.add(reason),
                        Item::Damaged(d) => {
                            left.add(d.rejection());
                            if outcome.damage.len() < DAMAGE_TOLD {
                                outcome.damage.push(d);
                            } else {
                                outcome.more_damage += 1;
                            }
                        }
                        Item::Unread(e) => outcome.unread = Some(e),
                    }
                }
            }
        }
        if outcome.unread.is_some() {
            outcome.damage.clear();
            outcome.more_damage = 0;
        }
        outcomes.push(outcome);
        if stopped {
            break;
        }
    }
    outcomes
}

/// Every `.html`, `.htm` and `.xhtml` file of a folder, as pages of one
/// site mounted at the site folder origin (as `tex extract` mounts it), each
/// at its file's URL (`index.html?lang=es.html` at `index.html%3Flang=es.html`,
/// [`url_of_file`]); the site is the folder's path, since every folder
/// shares that origin.
fn folder_records(dir: &Path) -> Result<Box<dyn Iterator<Item = Item> + Send>, InputError> {
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
    if files.is_empty() {
        return Err(InputError::NoHtmlFiles(dir.to_path_buf()));
    }
    files.sort();
    let origin = Url::parse(ORIGIN).expect("valid origin");
    let root = dir.to_path_buf();
    Ok(Box::new(files.into_iter().map(move |file| {
        let relative: Vec<String> = file
            .strip_prefix(&root)
            .unwrap_or(&file)
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let Some(url) = url_of_file(&origin, &relative.join("/")) else { return Item::Left(Rejection::BadUrl) };
        let Ok(body) = read_at_most(&file) else { return Item::Left(Rejection::Truncated) };
        Item::Page(Record { site: site.clone(), url, body, content_type: None, replaced_bytes: 0 })
    })))
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

/// A record's URL, in its one spelling ([`normal_url`]), so pages and
/// the links between them meet however each was written; `bad_url` for
/// one that is not http or https.
pub fn web_url(text: &str) -> Result<Url, Rejection> {
    let url = Url::parse(text.trim().trim_start_matches('<').trim_end_matches('>')).map_err(|_| Rejection::BadUrl)?;
    if matches!(url.scheme(), "http" | "https") && url.host().is_some() {
        Ok(normal_url(&url))
    } else {
        Err(Rejection::BadUrl)
    }
}

#[derive(Deserialize)]
struct JsonlPage {
    url: String,
    html: String,
}

fn unreadable(path: &Path) -> impl Fn(std::io::Error) -> InputError + '_ {
    move |e| InputError::Unreadable { path: path.to_path_buf(), reason: e.to_string() }
}

/// A file opened for reading, or why not; an empty one is refused.
fn open_nonempty(file: &Path) -> Result<File, InputError> {
    let f = File::open(file).map_err(unreadable(file))?;
    if f.metadata().map_err(unreadable(file))?.len() == 0 {
        return Err(InputError::Empty(file.to_path_buf()));
    }
    Ok(f)
}

/// A JSONL file's lines as pages; a line that is not `{url, html}` is left
/// out with its line number and the next line read. A file none of whose
/// lines is one is unread.
fn jsonl_records(file: &Path) -> Result<Box<dyn Iterator<Item = Item> + Send>, InputError> {
    let f = open_nonempty(file)?;
    let path = file.to_path_buf();
    let mut lines = BufReader::new(f).split(b'\n').enumerate();
    let (mut read, mut first_bad, mut done) = (false, None, false);
    Ok(Box::new(std::iter::from_fn(move || loop {
        if done {
            return None;
        }
        let Some((i, line)) = lines.next() else {
            done = true;
            if read {
                return None;
            }
            return Some(Item::Unread(match first_bad {
                Some(first_bad) => InputError::NoJsonlPage { path: path.clone(), first_bad },
                None => InputError::Empty(path.clone()),
            }));
        };
        let Ok(line) = line else {
            done = true;
            if read {
                return Some(Item::Left(Rejection::Truncated));
            }
            return Some(Item::Unread(InputError::Unreadable {
                path: path.clone(),
                reason: format!("line {} could not be read", i + 1),
            }));
        };
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        // A line with bytes that are not UTF-8 (a crawler that wrote a
        // page's raw bytes) is read as a browser would read the page: each
        // such run is U+FFFD, counted.
        let (line, replaced_bytes) = match std::str::from_utf8(&line) {
            Ok(_) => (line, 0),
            Err(_) => (String::from_utf8_lossy(&line).into_owned().into_bytes(), invalid_utf8_bytes(&line)),
        };
        let parsed = serde_json::from_slice::<JsonlPage>(&line).map(|page| (page, 0)).or_else(|e| {
            let (line, lone) = super::lone_surrogates::replaced(&line).ok_or(e)?;
            serde_json::from_slice::<JsonlPage>(&line).map(|page| (page, lone))
        });
        let Ok((page, lone)) = parsed else {
            first_bad.get_or_insert(i + 1);
            return Some(Item::Damaged(Damage::JsonlLine { path: path.clone(), line: i + 1 }));
        };
        let replaced_bytes = replaced_bytes + lone;
        read = true;
        return Some(match web_url(&page.url) {
            Ok(url) => {
                let body = page.html.into_bytes();
                Item::Page(Record { site: site_of(&url), url, body, content_type: None, replaced_bytes })
            }
            Err(reason) => Item::Left(reason),
        });
    })))
}

/// A WARC or WARC.gz file's records, once its start shows it is one.
fn warc_records(file: &Path) -> Result<Box<dyn Iterator<Item = Item> + Send>, InputError> {
    let mut magic = [0u8; 2];
    let gzip = open_nonempty(file)?.read(&mut magic).map_err(unreadable(file))? == 2 && magic == [0x1f, 0x8b];
    let open = || File::open(file).map_err(unreadable(file));
    if gzip {
        let bad_gzip = |e: std::io::Error| InputError::BadGzip { path: file.to_path_buf(), reason: e.to_string() };
        let decoder =
            libflate::gzip::MultiDecoder::new(BufReader::with_capacity(1 << 20, open()?)).map_err(bad_gzip)?;
        let mut reader = BufReader::with_capacity(1 << 20, decoder);
        check_warc_start(file, &mut reader, false, bad_gzip)?;
        Ok(Box::new(warc_items(file, WarcReader::new(reader))))
    } else {
        let mut reader = BufReader::with_capacity(1 << 20, open()?);
        let named_gz = file.to_string_lossy().to_ascii_lowercase().ends_with(".gz");
        check_warc_start(file, &mut reader, named_gz, unreadable(file))?;
        Ok(Box::new(warc_items(file, WarcReader::new(reader))))
    }
}

/// Whether a (decompressed) stream starts as a WARC file does: `WARC/` and
/// a first line ending in CR LF. The `warc` crate would otherwise read a
/// file that is not WARC, or one whose lines end in LF only, to its end
/// and find no record without a word. A read error is told by `io`.
fn check_warc_start<R: BufRead>(
    file: &Path,
    reader: &mut R,
    named_gz: bool,
    io: impl FnOnce(std::io::Error) -> InputError,
) -> Result<(), InputError> {
    let start = reader.fill_buf().map_err(io)?;
    if start.is_empty() {
        return Err(InputError::Empty(file.to_path_buf()));
    }
    let n = start.len().min(5);
    if start[..n] != b"WARC/"[..n] {
        return Err(InputError::NotWarc { path: file.to_path_buf(), named_gz });
    }
    if let Some(end) = start.iter().position(|&b| b == b'\n') {
        if end == 0 || start[end - 1] != b'\r' {
            return Err(InputError::LfOnly(file.to_path_buf()));
        }
    }
    Ok(())
}

/// The response and resource records of a WARC stream as pages. A record
/// the parser cannot read ends the file: the reader cannot find the next
/// record boundary after a broken one, so guessing would invent records.
/// A file whose first record is broken, or that holds no response or
/// resource record, is unread.
fn warc_items<R: BufRead + Send>(file: &Path, reader: WarcReader<R>) -> impl Iterator<Item = Item> + Send {
    let path = file.to_path_buf();
    let mut records = reader.iter_records();
    let (mut parsed, mut pages, mut done) = (0, 0, false);
    std::iter::from_fn(move || loop {
        if done {
            return None;
        }
        match records.next() {
            None => {
                done = true;
                return (pages == 0).then(|| Item::Unread(InputError::NoPages { path: path.clone(), records: parsed }));
            }
            Some(Err(e)) => {
                done = true;
                let index = parsed + 1;
                let cut = match &e {
                    warc::Error::UnexpectedEOB => true,
                    warc::Error::ReadData(io) => io.kind() == std::io::ErrorKind::UnexpectedEof,
                    _ => false,
                };
                let reason = warc_error(&e);
                if parsed == 0 {
                    return Some(Item::Unread(InputError::FirstRecord { path: path.clone(), reason }));
                }
                return Some(Item::Damaged(if cut {
                    Damage::Cut { path: path.clone(), index }
                } else {
                    Damage::WarcRecord { path: path.clone(), index, reason }
                }));
            }
            Some(Ok(record)) => {
                parsed += 1;
                let kind = record.warc_type().clone();
                // A resource of another type is no page, nor a page left
                // out: wget stores its log and manifest so, at `metadata:` URIs.
                let html_resource = || record.header(WarcHeader::ContentType).is_none_or(|t| is_html_type(&t));
                if !(kind == RecordType::Response || kind == RecordType::Resource && html_resource()) {
                    continue;
                }
                pages += 1;
                return Some(match warc_page(&record, kind == RecordType::Response) {
                    Ok(r) => Item::Page(r),
                    Err(reason) => Item::Left(reason),
                });
            }
        }
    })
}

/// What the `warc` crate's error says, as part of a sentence.
fn warc_error(e: &warc::Error) -> String {
    match e {
        warc::Error::ParseHeaders(_) => "its header cannot be parsed".into(),
        warc::Error::MissingHeader(h) => format!("it lacks the {h} header"),
        warc::Error::MalformedHeader(h, why) => format!("its {h} header is malformed: {why}"),
        warc::Error::ReadData(io) => format!("reading failed: {io}"),
        warc::Error::ReadOverflow => "its block does not end where its Content-Length says".into(),
        warc::Error::UnexpectedEOB => "the file ends inside it".into(),
    }
}

fn warc_page(record: &warc::Record<warc::BufferedBody>, http: bool) -> Result<Record, Rejection> {
    let url = web_url(&record.header(WarcHeader::TargetURI).ok_or(Rejection::BadUrl)?)?;
    if record.truncated_type().is_some() {
        return Err(Rejection::Truncated);
    }
    let (body, content_type) = if http {
        http_body(record.body())?
    } else {
        (record.body().to_vec(), record.header(WarcHeader::ContentType).map(|c| c.into_owned()))
    };
    Ok(Record { site: site_of(&url), url, body, content_type, replaced_bytes: 0 })
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
