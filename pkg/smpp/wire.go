package smpp

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/fiorix/go-smpp/smpp/pdu"
	"github.com/fiorix/go-smpp/smpp/pdu/pdufield"
)

// maxFrame bounds the command_length we accept. The codec itself decodes at
// most pdu.MaxSize octets; larger frames are read whole (so the stream stays
// in sync) and answered as undecodable.
const maxFrame = 64 * 1024

// frame is one PDU read off the wire. raw holds the whole PDU, header
// included, and is only valid until the next read.
type frame struct {
	id     pdu.ID
	status Status
	seq    uint32
	raw    []byte
}

// frameReader splits the byte stream into PDUs, reusing one buffer.
type frameReader struct {
	r   *bufio.Reader
	buf []byte
}

func newFrameReader(r io.Reader) *frameReader {
	return &frameReader{r: bufio.NewReaderSize(r, 64*1024), buf: make([]byte, 0, 1024)}
}

func (fr *frameReader) next() (frame, error) {
	var hdr [pdu.HeaderLen]byte
	if _, err := io.ReadFull(fr.r, hdr[:]); err != nil {
		return frame{}, err
	}
	n := binary.BigEndian.Uint32(hdr[0:4])
	if n < pdu.HeaderLen || n > maxFrame {
		return frame{}, fmt.Errorf("invalid command_length %d", n)
	}
	if cap(fr.buf) < int(n) {
		fr.buf = make([]byte, n)
	}
	b := fr.buf[:n]
	copy(b, hdr[:])
	if _, err := io.ReadFull(fr.r, b[pdu.HeaderLen:]); err != nil {
		return frame{}, fmt.Errorf("read PDU body: %w", err)
	}
	return frame{
		id:     pdu.ID(binary.BigEndian.Uint32(hdr[4:8])),
		status: Status(binary.BigEndian.Uint32(hdr[8:12])),
		seq:    binary.BigEndian.Uint32(hdr[12:16]),
		raw:    b,
	}, nil
}

// decode runs the frame through the go-smpp codec.
func (f frame) decode() (pdu.Body, error) {
	if len(f.raw) > pdu.MaxSize {
		return nil, fmt.Errorf("%s of %d octets exceeds the codec limit of %d", f.id, len(f.raw), pdu.MaxSize)
	}
	return pdu.Decode(bytes.NewReader(f.raw))
}

// messageID returns the message_id of a submit_sm_resp frame. Error responses
// commonly carry no body at all, which yields "".
func (f frame) messageID() (string, error) {
	if len(f.raw) == pdu.HeaderLen {
		return "", nil
	}
	// The usual body is the id alone, NUL-terminated: read it as the codec would
	// (TestMessageIDMatchesCodec), without building its field map.
	if body := f.raw[pdu.HeaderLen:]; len(f.raw) <= pdu.MaxSize && bytes.IndexByte(body, 0) == len(body)-1 {
		return string(body[:len(body)-1]), nil
	}
	p, err := f.decode()
	if err != nil {
		return "", fmt.Errorf("decode %s: %w", f.id, err)
	}
	if v := p.Fields()[pdufield.MessageID]; v != nil {
		return v.String(), nil
	}
	return "", nil
}

// isResponse reports whether id is a response command id.
func isResponse(id pdu.ID) bool { return id&0x80000000 != 0 }

// encodePDU appends a codec-built PDU with the given sequence number and
// command_status.
func encodePDU(w *bytes.Buffer, p pdu.Body, seq uint32, status Status) error {
	p.Header().Seq = seq
	p.Header().Status = pdu.Status(status)
	if err := p.SerializeTo(w); err != nil {
		return fmt.Errorf("encode %s: %w", p.Header().ID, err)
	}
	return nil
}
