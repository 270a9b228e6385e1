package problemgen

import "testing"

func BenchmarkGenerate(b *testing.B) {
	b.ReportAllocs()
	for i := range b.N {
		Generate(uint64(i), Size{})
	}
}

func BenchmarkDecode(b *testing.B) {
	data := make([]byte, 512)
	for i := range data {
		data[i] = byte(i * 7)
	}
	b.ReportAllocs()
	for range b.N {
		Decode(data)
	}
}
