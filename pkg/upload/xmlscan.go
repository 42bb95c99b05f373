package upload

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// xmlReader tokenizes the XML of an xlsx part from a stream: as much XML as a
// worksheet or a shared-strings table needs. Start and end tags come with their
// local name and raw attributes, text raw (appendText decodes it); comments,
// processing instructions and declarations are skipped, CDATA comes as raw text.
// A token is handed out whole, so it must fit the buffer: like xmlBounds, the
// reader refuses any text run, tag, comment or CDATA section over maxTokenBytes
// (ErrTooLong), and its offset lets the caller bound its elements.
type xmlReader struct {
	r        io.Reader
	buf      []byte
	pos, end int
	base     int64 // the stream offset of buf[0]
	eof      bool
}

// xmlTokenKind is the kind of an xmlToken.
type xmlTokenKind uint8

const (
	tokStart xmlTokenKind = iota + 1
	tokEnd
	tokEmpty // a self-closing tag: a start and its end
	tokText
	tokCDATA
)

// xmlToken is one token; its slices point into the reader's buffer and are valid
// until the next call.
type xmlToken struct {
	kind  xmlTokenKind
	name  []byte // a tag's local name (its prefix dropped)
	attrs []byte // a start tag's attributes, raw
	text  []byte // text or CDATA, raw
}

// xmlBufBytes is the reader's buffer: a whole token (≤ maxTokenBytes) fits.
const xmlBufBytes = 4 * maxTokenBytes

func newXMLReader(r io.Reader) *xmlReader {
	return &xmlReader{r: r, buf: make([]byte, xmlBufBytes)}
}

// more keeps the unread bytes and reads more after them; io.EOF once the stream
// has ended and nothing could be added.
func (x *xmlReader) more() error {
	if x.eof {
		return io.EOF
	}
	if x.end-x.pos > maxTokenBytes {
		return ErrTooLong // the token at pos runs on past the bound
	}
	if x.pos > 0 {
		x.end = copy(x.buf, x.buf[x.pos:x.end])
		x.base += int64(x.pos)
		x.pos = 0
	}
	n, err := x.r.Read(x.buf[x.end:])
	x.end += n
	if err == io.EOF {
		x.eof = true
	} else if err != nil {
		return fmt.Errorf("read xlsx part: %w: %w", ErrFormat, err)
	}
	return nil
}

// offset is the stream offset of the next unread byte.
func (x *xmlReader) offset() int64 { return x.base + int64(x.pos) }

// next reads the next token; io.EOF at the end of the stream.
func (x *xmlReader) next(t *xmlToken) error {
	for {
		if x.pos == x.end {
			if err := x.more(); err != nil {
				return err
			}
			continue
		}
		p := x.buf[x.pos:x.end]
		if p[0] != '<' {
			i := bytes.IndexByte(p, '<')
			if i < 0 && !x.eof {
				if err := x.more(); err != nil {
					return err
				}
				continue
			}
			if i < 0 {
				i = len(p)
			}
			if i > maxTokenBytes {
				return ErrTooLong
			}
			t.kind, t.text = tokText, p[:i]
			x.pos += i
			return nil
		}
		n, ok, err := x.markup(t, p)
		if err != nil {
			return err
		}
		if n == 0 { // the markup runs on past the buffer
			if err := x.more(); err != nil {
				return unexpected(err)
			}
			continue
		}
		if n > maxTokenBytes {
			return ErrTooLong
		}
		x.pos += n
		if ok {
			return nil
		}
	}
}

// unexpected turns an end of stream inside markup into a format error.
func unexpected(err error) error {
	if err == io.EOF {
		return fmt.Errorf("xml: %w: %w", ErrFormat, io.ErrUnexpectedEOF)
	}
	return err
}

// Markup openings and the ends that close them.
var (
	openComment = []byte("<!--")
	openCDATA   = []byte("<![CDATA[")
	endComment  = []byte("-->")
	endCDATA    = []byte("]]>")
	endPI       = []byte("?>")
)

// markup reads the markup at the start of p (p[0] == '<') into t. It returns the
// bytes it spans (0 when p does not hold it whole) and whether it is a token
// (comments, processing instructions and declarations are not).
func (x *xmlReader) markup(t *xmlToken, p []byte) (int, bool, error) {
	if len(p) < len(openCDATA) && !x.eof {
		return 0, false, nil
	}
	var close []byte
	switch {
	case bytes.HasPrefix(p, openComment):
		close = endComment
	case bytes.HasPrefix(p, openCDATA):
		i := bytes.Index(p[len(openCDATA):], endCDATA)
		if i < 0 {
			return 0, false, nil
		}
		t.kind, t.text = tokCDATA, p[len(openCDATA):len(openCDATA)+i]
		return len(openCDATA) + i + len(endCDATA), true, nil
	case len(p) > 1 && p[1] == '?':
		close = endPI
	case len(p) > 1 && p[1] == '!':
		close = []byte(">")
	}
	if close != nil {
		i := bytes.Index(p[1:], close)
		if i < 0 {
			return 0, false, nil
		}
		return 1 + i + len(close), false, nil
	}
	end := tagClose(p)
	if end < 0 {
		return 0, false, nil
	}
	x.tag(t, p[1:end])
	return end + 1, true, nil
}

// tag fills t from the inside of a tag (between '<' and '>').
func (x *xmlReader) tag(t *xmlToken, in []byte) {
	t.kind = tokStart
	if len(in) > 0 && in[0] == '/' {
		t.kind, in = tokEnd, in[1:]
	} else if len(in) > 0 && in[len(in)-1] == '/' {
		t.kind, in = tokEmpty, in[:len(in)-1]
	}
	n := 0
	for n < len(in) && !isXMLSpace(in[n]) {
		n++
	}
	t.name, t.attrs = localName(in[:n]), in[n:]
}

// tagClose is the index of the '>' that ends the tag at p[0], outside quoted
// attribute values; -1 when p does not hold it.
func tagClose(p []byte) int {
	var quote byte
	for i := 1; i < len(p); i++ {
		switch c := p[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '>':
			return i
		case c == '"' || c == '\'':
			quote = c
		}
	}
	return -1
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// localName drops a name's namespace prefix.
func localName(name []byte) []byte {
	if i := bytes.IndexByte(name, ':'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// attr returns the raw value of the attribute with the local name key, or nil.
func attr(attrs []byte, key string) []byte {
	for len(attrs) > 0 {
		eq := bytes.IndexByte(attrs, '=')
		if eq < 0 {
			return nil
		}
		name := localName(bytes.TrimSpace(attrs[:eq]))
		rest := bytes.TrimLeft(attrs[eq+1:], " \t\r\n")
		if len(rest) == 0 || rest[0] != '"' && rest[0] != '\'' {
			return nil
		}
		end := bytes.IndexByte(rest[1:], rest[0])
		if end < 0 {
			return nil
		}
		if string(name) == key {
			return rest[1 : 1+end]
		}
		attrs = rest[end+2:]
	}
	return nil
}

// appendText appends raw XML text to dst decoded: the five named entities and
// character references, and line ends normalised to "\n" as encoding/xml does.
// An unknown entity is kept as written.
func appendText(dst, raw []byte) []byte {
	if bytes.IndexByte(raw, '&') < 0 && bytes.IndexByte(raw, '\r') < 0 {
		return append(dst, raw...)
	}
	for len(raw) > 0 {
		i := bytes.IndexAny(raw, "&\r")
		if i < 0 {
			return append(dst, raw...)
		}
		dst, raw = append(dst, raw[:i]...), raw[i:]
		if raw[0] == '\r' {
			dst, raw = append(dst, '\n'), raw[1:]
			if len(raw) > 0 && raw[0] == '\n' {
				raw = raw[1:]
			}
			continue
		}
		var n int
		dst, n = appendEntity(dst, raw)
		raw = raw[n:]
	}
	return dst
}

// appendEntity decodes the entity at raw[0] == '&' and returns the bytes it took.
func appendEntity(dst, raw []byte) ([]byte, int) {
	semi := bytes.IndexByte(raw, ';')
	if semi < 0 || semi > 12 {
		return append(dst, '&'), 1
	}
	switch name := string(raw[1:semi]); name {
	case "amp":
		return append(dst, '&'), semi + 1
	case "lt":
		return append(dst, '<'), semi + 1
	case "gt":
		return append(dst, '>'), semi + 1
	case "quot":
		return append(dst, '"'), semi + 1
	case "apos":
		return append(dst, '\''), semi + 1
	default:
		if r, ok := charRef(name); ok {
			return utf8.AppendRune(dst, r), semi + 1
		}
	}
	return append(dst, '&'), 1
}

// charRef decodes the name of a character reference (#65, #x41).
func charRef(name string) (rune, bool) {
	if len(name) < 2 || name[0] != '#' {
		return 0, false
	}
	base, digits := 10, name[1:]
	if digits[0] == 'x' {
		base, digits = 16, digits[1:]
	}
	n, err := strconv.ParseUint(digits, base, 32)
	if err != nil || !utf8.ValidRune(rune(n)) {
		return 0, false
	}
	return rune(n), true
}

// appendBSTR decodes Excel's _xHHHH_ escapes (as excelize does) in b[from:].
func appendBSTR(b []byte, from int) []byte {
	s := b[from:]
	if bytes.Index(s, []byte("_x")) < 0 {
		return b
	}
	out := make([]byte, 0, len(s))
	for len(s) > 0 {
		i := bytes.Index(s, []byte("_x"))
		if i < 0 || len(s) < i+7 || s[i+6] != '_' {
			out = append(out, s...)
			break
		}
		out = append(out, s[:i]...)
		if v, err := strconv.ParseUint(string(s[i+2:i+6]), 16, 16); err == nil {
			out = utf8.AppendRune(out, rune(v))
			s = s[i+7:]
			continue
		}
		out, s = append(out, s[i]), s[i+1:]
	}
	return append(b[:from], out...)
}

// errNoSheet marks a workbook whose first sheet is not in the archive.
var errNoSheet = errors.New("xlsx: the first sheet is missing")
