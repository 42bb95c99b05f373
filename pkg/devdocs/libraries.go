package devdocs

import (
	"sync"

	"github.com/chapar/chapar/sdk"
)

// Library is a client library of the public API (sdk/, docs/sdk.md). Its Sample
// sends from SampleLine with SampleKey to SampleBase; the panel puts the reader's
// own line, key prefix and address in their place.
type Library struct {
	ID      string `json:"id"` // php, python, javascript, go: the documentation page's languages
	Title   string `json:"title"`
	Package string `json:"package"`
	Install string `json:"install"`
	Sample  string `json:"sample"`
	// Download is the path of the library's zip (GET, public).
	Download string `json:"download"`
}

// The sample values of Library.Sample.
const (
	SampleLine = "30001234"
	SampleKey  = "YOUR_API_KEY"
	SampleBase = "https://sms.example.ir"
)

// libraries maps a library's id to its folder under sdk/.
var libraries = []struct {
	Library
	dir string
}{
	{Library{ID: "php", Title: "کتابخانه PHP (۸٫۲ به بالا)", Package: "chapar/sdk",
		Install: "composer require chapar/sdk   # یا پوشه src را مستقیم require کنید",
		Sample: `<?php
use Chapar\Client;
use Chapar\ChaparException;

$client = new Client('https://sms.example.ir', 'YOUR_API_KEY');
try {
    $sent = $client->send('30001234', ['09121234567'], 'سفارش شما ارسال شد', ['local_id' => 'order-5521']);
    $status = $client->statusByLocalId('order-5521', '09121234567');
} catch (ChaparException $e) {
    echo $e->getMessageCode(), ' ', $e->getMessage(); // پیام فارسی خطا
}`}, "php"},
	{Library{ID: "python", Title: "کتابخانه Python (۳٫۹ به بالا)", Package: "chapar",
		Install: "pip install ./chapar-sdk-python",
		Sample: `from chapar import Client, ChaparError

client = Client("https://sms.example.ir", "YOUR_API_KEY")
try:
    sent = client.send("30001234", ["09121234567"], "سفارش شما ارسال شد", local_id="order-5521")
    status = client.status_by_local_id("order-5521", mobile="09121234567")
except ChaparError as e:
    print(e.code, e.message)  # پیام فارسی خطا`}, "python"},
	{Library{ID: "javascript", Title: "کتابخانه JavaScript / TypeScript (Node 18 به بالا)", Package: "@chapar/sdk",
		Install: "npm install ./chapar-sdk-js",
		Sample: `import { Client, ChaparError } from '@chapar/sdk'

const client = new Client('https://sms.example.ir', 'YOUR_API_KEY')
try {
  const sent = await client.send({ sender: '30001234', numbers: ['09121234567'], text: 'سفارش شما ارسال شد', localId: 'order-5521' })
  const status = await client.statusByLocalId('order-5521', { mobile: '09121234567' })
} catch (err) {
  if (err instanceof ChaparError) console.log(err.code, err.message) // پیام فارسی خطا
}`}, "js"},
	{Library{ID: "go", Title: "کتابخانه Go (۱٫۲۲ به بالا)", Package: "github.com/chapar/chapar/sdk/go",
		Install: "go get github.com/chapar/chapar/sdk/go",
		Sample: `import chapar "github.com/chapar/chapar/sdk/go"

c := chapar.New("https://sms.example.ir", "YOUR_API_KEY")
sent, err := c.Send(ctx, chapar.SendRequest{Sender: "30001234", Numbers: []string{"09121234567"},
	Text: "سفارش شما ارسال شد", LocalID: "order-5521"})
if e, ok := chapar.AsError(err); ok {
	log.Println(e.Code, e.Message) // پیام فارسی خطا
}`}, "go"},
}

// Libraries returns the client libraries with their downloads.
func Libraries() []Library {
	out := make([]Library, len(libraries))
	for i, l := range libraries {
		out[i] = l.Library
		out[i].Download = "/v1/api/sdk/" + l.ID + "/download"
	}
	return out
}

var libraryZips sync.Map // id → func() (Archive, error)

// LibraryArchive returns the zip of a client library (built once from the
// embedded files, its folder renamed chapar-sdk-<id>), or ErrNoArchive.
func LibraryArchive(id string) (Archive, error) {
	for _, l := range libraries {
		if l.ID != id {
			continue
		}
		build, _ := libraryZips.LoadOrStore(id, sync.OnceValues(func() (Archive, error) {
			data, err := zipFS(sdk.Files(), l.dir, "chapar-sdk-"+l.ID)
			return Archive{Name: "chapar-sdk-" + l.ID + ".zip", Data: data}, err
		}))
		return build.(func() (Archive, error))()
	}
	return Archive{}, ErrNoArchive
}
