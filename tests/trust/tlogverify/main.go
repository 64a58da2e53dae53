// Command tlogverify checks a lowcostgpu publication log with Go's own transparency-log packages
// (golang.org/x/mod/sumdb/note and sumdb/tlog, as Debian packages them), so that the log is shown
// to verify without a line of the service's code:
//
//   - the checkpoint at BASE/v1/log/checkpoint is a signed note by VKEY (a note verifier key);
//   - every tile read from BASE/v1/log/tile/ agrees with the checkpoint's root (tlog.TileHashReader);
//   - every entry of every entry bundle has an inclusion proof to that root, and the kind its place
//     gives it (a week's first entry a publication, the same signed bytes again a signature, other
//     bytes a correction);
//   - with -old FILE, a checkpoint accepted before (same key, same origin) is consistent with the new
//     one: the log did not fork, shrink or drop an entry;
//   - with -sheets, each week's sheet as served (BASE/v1/sheets/WEEK/signed.note) is a note signed
//     by one of the keys, and its text is the version the week's newest entry logs.
//
// It prints one line per entry (index, week, kind, signed_sha256) and exits 1 on the first failure.
//
// Usage: tlogverify -base URL -vkey VKEY[,VKEY…] [-old CHECKPOINT_FILE] [-save CHECKPOINT_FILE] [-sheets]
package main

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

const tileHeight = 8 // C2SP tlog-tiles fixes it

var client = &http.Client{Timeout: 30 * time.Second}

func fetch(url string) ([]byte, error) {
	resp, err := client.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<24))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return body, nil
}

type checkpoint struct {
	origin string
	tree   tlog.Tree
	text   []byte
}

// open verifies a signed checkpoint with the verifiers and reads its three body lines.
func open(msg []byte, verifiers note.Verifiers) (checkpoint, error) {
	n, err := note.Open(msg, verifiers)
	if err != nil {
		return checkpoint{}, fmt.Errorf("checkpoint signature: %v", err)
	}
	lines := strings.SplitN(n.Text, "\n", 4)
	if len(lines) < 4 {
		return checkpoint{}, errors.New("checkpoint: fewer than three lines")
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || size < 0 {
		return checkpoint{}, fmt.Errorf("checkpoint size %q", lines[1])
	}
	root, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(root) != tlog.HashSize {
		return checkpoint{}, fmt.Errorf("checkpoint root %q", lines[2])
	}
	var h tlog.Hash
	copy(h[:], root)
	// A key of another name may have signed it too; the log's own signature is under its origin.
	for _, s := range n.Sigs {
		if s.Name == lines[0] {
			return checkpoint{origin: lines[0], tree: tlog.Tree{N: size, Hash: h}, text: msg}, nil
		}
	}
	return checkpoint{}, fmt.Errorf("checkpoint: no signature under its origin %q", lines[0])
}

// tileReader reads tiles over HTTP at the C2SP paths: Go's "tile/8/L/N" without its height.
type tileReader struct{ base string }

func (r tileReader) Height() int { return tileHeight }

func (r tileReader) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, t := range tiles {
		path := strings.TrimPrefix(t.Path(), fmt.Sprintf("tile/%d/", tileHeight))
		data, err := fetch(r.base + "/v1/log/tile/" + path)
		if err != nil {
			return nil, err
		}
		out[i] = data
	}
	return out, nil
}

func (r tileReader) SaveTiles([]tlog.Tile, [][]byte) {}

// entries reads every entry bundle of a tree of size n.
func entries(base string, n int64) ([][]byte, error) {
	var all [][]byte
	for k := int64(0); k*256 < n; k++ {
		w := n - k*256
		if w > 256 {
			w = 256
		}
		t := tlog.Tile{H: tileHeight, L: -1, N: k, W: int(w)}
		path := strings.Replace(strings.TrimPrefix(t.Path(), fmt.Sprintf("tile/%d/", tileHeight)), "data/", "entries/", 1)
		data, err := fetch(base + "/v1/log/tile/" + path)
		if err != nil {
			return nil, err
		}
		held := int64(0)
		for len(data) > 0 {
			if len(data) < 2 {
				return nil, fmt.Errorf("entry bundle %s: a truncated length", path)
			}
			size := int(data[0])<<8 | int(data[1])
			if len(data) < 2+size {
				return nil, fmt.Errorf("entry bundle %s: a truncated entry", path)
			}
			all = append(all, data[2:2+size])
			data = data[2+size:]
			held++
		}
		// Each bundle holds exactly its width, where a C2SP client looks for its entries.
		if held != w {
			return nil, fmt.Errorf("entry bundle %s holds %d entries, its width %d", path, held, w)
		}
	}
	if int64(len(all)) != n {
		return nil, fmt.Errorf("the entry bundles hold %d entries, the checkpoint %d", len(all), n)
	}
	return all, nil
}

// field is the value of an entry's line "name value"; an entry without that line is malformed.
func field(entry []byte, name string) (string, error) {
	for _, line := range strings.Split(string(entry), "\n") {
		if strings.HasPrefix(line, name+" ") {
			return strings.TrimPrefix(line, name+" "), nil
		}
	}
	return "", fmt.Errorf("an entry has no %s line", name)
}

// described is an entry's week, kind and signed_sha256, each required.
func described(entry []byte) (week, kind, sum string, err error) {
	if week, err = field(entry, "week"); err != nil {
		return
	}
	if kind, err = field(entry, "kind"); err != nil {
		return
	}
	sum, err = field(entry, "signed_sha256")
	return
}

// logWeeks prints each entry and applies the log's rule of kinds to it (a week's first entry is
// its publication, one with the signed bytes of the week's entry before it a signature, any other
// a correction), and gives the weeks in the order they first appear with the signed_sha256 each
// logged last.
func logWeeks(all [][]byte) (weeks []string, newest map[string]string, err error) {
	newest = map[string]string{}
	for i, e := range all {
		w, kind, sum, err := described(e)
		if err != nil {
			return nil, nil, fmt.Errorf("entry %d: %v", i, err)
		}
		before, seen := newest[w]
		want := "correction"
		if !seen {
			want = "publication"
			weeks = append(weeks, w)
		} else if before == sum {
			want = "signature"
		}
		fmt.Printf("entry %d: %s %s %s\n", i, w, kind, sum)
		if kind != want {
			return nil, nil, fmt.Errorf("entry %d (%s) is logged as a %s, but its place makes it a %s", i, w, kind, want)
		}
		newest[w] = sum
	}
	return weeks, newest, nil
}

// checkSheets verifies each week's served signed note and matches it to the week's newest entry.
func checkSheets(base string, weeks []string, newest map[string]string, verifiers note.Verifiers) error {
	for _, w := range weeks {
		msg, err := fetch(base + "/v1/sheets/" + w + "/signed.note")
		if err != nil {
			return err
		}
		n, err := note.Open(msg, verifiers)
		if err != nil {
			return fmt.Errorf("sheet %s: %v", w, err)
		}
		sum := sha256.Sum256([]byte(n.Text))
		if hex.EncodeToString(sum[:]) != newest[w] {
			return fmt.Errorf("sheet %s as served is not the version its newest log entry names", w)
		}
		fmt.Printf("sheet %s: signed, and the version logged last\n", w)
	}
	return nil
}

func run() error {
	base := flag.String("base", "", "the server's base URL")
	vkeys := flag.String("vkey", "", "the note verifier keys of the log's checkpoints, comma-separated (every key the log was signed with)")
	old := flag.String("old", "", "a checkpoint accepted before, which the new one must extend")
	save := flag.String("save", "", "where to write the checkpoint once verified")
	sheets := flag.Bool("sheets", false, "check each week's served sheet against its newest entry")
	flag.Parse()
	var list []note.Verifier
	for _, k := range strings.Split(*vkeys, ",") {
		v, err := note.NewVerifier(k)
		if err != nil {
			return fmt.Errorf("-vkey: %v", err)
		}
		list = append(list, v)
	}
	verifiers := note.VerifierList(list...)
	msg, err := fetch(*base + "/v1/log/checkpoint")
	if err != nil {
		return err
	}
	cp, err := open(msg, verifiers)
	if err != nil {
		return err
	}
	if cp.origin != list[0].Name() {
		return fmt.Errorf("checkpoint origin %q is not the keys' name %q", cp.origin, list[0].Name())
	}
	fmt.Printf("checkpoint: %s, %d entries, root %s\n", cp.origin, cp.tree.N, cp.tree.Hash)
	hashes := tlog.TileHashReader(cp.tree, tileReader{*base})
	if root, err := tlog.TreeHash(cp.tree.N, hashes); err != nil || root != cp.tree.Hash {
		return fmt.Errorf("the tiles do not give the checkpoint's root: %v", err)
	}
	all, err := entries(*base, cp.tree.N)
	if err != nil {
		return err
	}
	for i, e := range all {
		proof, err := tlog.ProveRecord(cp.tree.N, int64(i), hashes)
		if err != nil {
			return fmt.Errorf("entry %d: %v", i, err)
		}
		if err := tlog.CheckRecord(proof, cp.tree.N, cp.tree.Hash, int64(i), tlog.RecordHash(e)); err != nil {
			return fmt.Errorf("entry %d is not in the log the checkpoint signs: %v", i, err)
		}
	}
	weeks, newest, err := logWeeks(all)
	if err != nil {
		return err
	}
	if *old != "" {
		oldMsg, err := os.ReadFile(*old)
		if err != nil {
			return err
		}
		before, err := open(oldMsg, verifiers)
		if err != nil {
			return fmt.Errorf("-old: %v", err)
		}
		if before.origin != cp.origin {
			return fmt.Errorf("the checkpoint names the log %q, the one accepted before %q", cp.origin, before.origin)
		}
		if before.tree.N > cp.tree.N {
			return fmt.Errorf("the log shrank: %d entries, after %d", cp.tree.N, before.tree.N)
		}
		proof, err := tlog.ProveTree(cp.tree.N, before.tree.N, hashes)
		if err == nil {
			err = tlog.CheckTree(proof, cp.tree.N, cp.tree.Hash, before.tree.N, before.tree.Hash)
		}
		if err != nil {
			return fmt.Errorf("the log forked: the checkpoint of %d entries does not extend the one of %d: %v",
				cp.tree.N, before.tree.N, err)
		}
		fmt.Printf("consistent with the checkpoint of %d entries\n", before.tree.N)
	}
	if *sheets {
		if err := checkSheets(*base, weeks, newest, verifiers); err != nil {
			return err
		}
	}
	if *save != "" {
		return os.WriteFile(*save, msg, 0o644)
	}
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "tlogverify:", err)
		os.Exit(1)
	}
	fmt.Println("ok")
}
