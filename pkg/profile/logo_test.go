package profile

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"testing"

	"github.com/chapar/chapar/pkg/plan"
)

func TestFit(t *testing.T) {
	for _, c := range []struct{ w, h, ww, wh int }{
		{100, 50, 100, 50}, {1024, 512, 256, 128}, {100, 300, 85, 256}, {5000, 1, 256, 1}, {256, 256, 256, 256},
	} {
		if w, h := fit(c.w, c.h, LogoSide); w != c.ww || h != c.wh {
			t.Errorf("fit(%d, %d) = %d×%d, want %d×%d", c.w, c.h, w, h, c.ww, c.wh)
		}
	}
}

func TestPlanInfo(t *testing.T) {
	pro := planInfo("pro", Usage{})
	have := map[string]bool{}
	for _, f := range pro.Facilities {
		have[f.Code] = f.Available
	}
	if pro.Current.Code != "pro" || !have[plan.ServiceBulk] || !have[plan.ServiceUTM] || have[plan.ServiceLocation] {
		t.Fatalf("pro plan %+v", pro)
	}
}

// BenchmarkResize scales a 2000×1500 JPEG photo (about the 2 MB a logo may weigh) to
// the stored 256 px PNG.
func BenchmarkResize(b *testing.B) {
	img := image.NewRGBA(image.Rect(0, 0, 2000, 1500))
	for y := 0; y < 1500; y++ {
		for x := 0; x < 2000; x++ {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), uint8(x ^ y), 255})
		}
	}
	var src bytes.Buffer
	_ = jpeg.Encode(&src, img, &jpeg.Options{Quality: 90})
	b.SetBytes(int64(src.Len()))
	b.ResetTimer()
	for b.Loop() {
		if _, err := resize(src.Bytes()); err != nil {
			b.Fatal(err)
		}
	}
}
