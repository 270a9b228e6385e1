package instancetypes

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// document is a catalog file (see the package doc for the schema).
type document struct {
	Source       []string `json:"source"`
	Generated    string   `json:"generated"`
	RegionPrices []string `json:"region_prices"`
	// Currency is nodeplan's own: the ISO 4217 code of the price and
	// spotPrice fields; "" means USD.
	Currency      string   `json:"currency"`
	InstanceTypes specList `json:"instanceTypes"`
}

// spec is one instance type of a catalog file. Pointer fields are optional:
// nil means unknown, never zero.
type spec struct {
	Name                    string             `json:"name"`
	Family                  string             `json:"family"`
	Size                    string             `json:"size"`
	Generation              *int64             `json:"generation"`
	Category                *string            `json:"category"`
	VCPU                    *int64             `json:"vcpu"`
	MemoryMiB               *int64             `json:"memoryMiB"`
	GPUs                    int64              `json:"gpus"`
	GPUManufacturer         string             `json:"gpuManufacturer"`
	GPUName                 string             `json:"gpuName"`
	GPUMemoryMiB            *int64             `json:"gpuMemoryMiB"`
	Accelerators            int64              `json:"accelerators"`
	AcceleratorManufacturer string             `json:"acceleratorManufacturer"`
	AcceleratorName         string             `json:"acceleratorName"`
	Arch                    string             `json:"arch"`
	CPUManufacturer         *string            `json:"cpuManufacturer"`
	BareMetal               bool               `json:"bareMetal"`
	Hypervisor              *string            `json:"hypervisor"`
	LocalNVMeGB             *int64             `json:"localNVMeGB"`
	NetworkBandwidthMbps    *int64             `json:"networkBandwidthMbps"`
	MaxPods                 *int64             `json:"maxPods"`
	Price                   map[string]float64 `json:"price"`

	// Optional overrides, nodeplan's own (see the package doc).
	OS        []string           `json:"os"`
	Labels    map[string]string  `json:"labels"`
	Capacity  map[string]string  `json:"capacity"`
	Overhead  map[string]string  `json:"overhead"`
	SpotPrice map[string]float64 `json:"spotPrice"`
}

// decode parses a catalog document strictly: unknown fields are errors, so
// that a misspelt override is not silently ignored. An error of the
// document's own fields comes first; else the first instance type's,
// naming its index ([specList]). It takes the short road ([decodeFast])
// where it can.
func decode(data []byte) (document, error) {
	if doc, ok := decodeFast(data); ok {
		return doc, nil
	}
	return decodeLong(data)
}

// decodeLong is decode with encoding/json reading the whole document.
func decodeLong(data []byte) (document, error) {
	var doc document
	if err := decodeStrict(bytes.NewReader(data), &doc); err != nil {
		return document{}, fieldErr("", "document", ErrInvalidSpec, "%v", err)
	}
	if err := doc.InstanceTypes.err; err != nil {
		return document{}, err
	}
	return doc, nil
}

// decodeStrict decodes the one JSON value r holds into v, an unknown field
// being an error.
func decodeStrict(r io.Reader, v any) error {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}

// validate checks the required fields of s.
func (s *spec) validate() []error {
	var errs []error
	if s.VCPU == nil || *s.VCPU <= 0 || *s.VCPU > 1<<20 {
		errs = append(errs, fieldErr(s.Name, "vcpu", ErrInvalidSpec, "missing or not in 1..2^20"))
	}
	if s.MemoryMiB == nil || *s.MemoryMiB <= gravitonReservedMiB || *s.MemoryMiB > 1<<34 {
		errs = append(errs, fieldErr(s.Name, "memoryMiB", ErrInvalidSpec, "missing or not in 65..2^34"))
	}
	if s.Arch == "" {
		errs = append(errs, fieldErr(s.Name, "arch", ErrInvalidSpec, "missing"))
	}
	if s.GPUs < 0 || s.Accelerators < 0 {
		errs = append(errs, fieldErr(s.Name, "gpus", ErrInvalidSpec, "gpus and accelerators must not be negative"))
	}
	if s.MaxPods != nil && (*s.MaxPods <= 0 || *s.MaxPods > 1<<20) {
		errs = append(errs, fieldErr(s.Name, "maxPods", ErrInvalidSpec, "%d not in 1..2^20", *s.MaxPods))
	}
	return errs
}

// labels returns the requirement set of s offered as offs: its labels, and
// its name, zones and capacity types as [build] derives them, so that a
// catalog file's types need not be built twice. It builds the set in b,
// which it resets first, so that a caller building many reuses one buffer.
func (s *spec) labels(region string, offs []Offering, b *labelBuilder) (requirements.Set, error) {
	b.reqs, b.errs = b.reqs[:0], nil
	gpu, acc := s.GPUs > 0, s.Accelerators > 0 // a type without them has DoesNotExist for each, as Karpenter labels it
	b.optional(requirements.LabelInstanceAcceleratorCount, when(acc, strconv.FormatInt(s.Accelerators, 10)))
	b.optional(requirements.LabelInstanceAcceleratorMfr, when(acc && s.AcceleratorManufacturer != "", s.AcceleratorManufacturer))
	b.optional(requirements.LabelInstanceAcceleratorName, when(acc && s.AcceleratorName != "", s.AcceleratorName))
	b.in(requirements.LabelInstanceBareMetal, strconv.FormatBool(s.BareMetal))
	b.optional(requirements.LabelInstanceCategory, s.Category)
	b.in(requirements.LabelInstanceCPU, strconv.FormatInt(*s.VCPU, 10))
	b.optional(requirements.LabelInstanceCPUManufacturer, s.CPUManufacturer)
	b.absent(requirements.LabelInstanceEBSBandwidth)
	b.optional(requirements.LabelInstanceFamily, nonEmpty(s.Family))
	b.optional(requirements.LabelInstanceGeneration, formatInt(s.Generation))
	b.optional(requirements.LabelInstanceGPUCount, when(gpu, strconv.FormatInt(s.GPUs, 10)))
	b.optional(requirements.LabelInstanceGPUManufacturer, when(gpu && s.GPUManufacturer != "", s.GPUManufacturer))
	b.optional(requirements.LabelInstanceGPUMemory, when(gpu && s.GPUMemoryMiB != nil, fmtPtr(s.GPUMemoryMiB)))
	b.optional(requirements.LabelInstanceGPUName, when(gpu && s.GPUName != "", s.GPUName))
	b.optional(requirements.LabelInstanceHypervisor, s.Hypervisor)
	b.optional(requirements.LabelInstanceLocalNVMe, formatInt(s.LocalNVMeGB))
	b.in(requirements.LabelInstanceMemory, strconv.FormatInt(*s.MemoryMiB, 10))
	b.optional(requirements.LabelInstanceNetworkBandwidth, formatInt(s.NetworkBandwidthMbps))
	b.optional(requirements.LabelInstanceSize, nonEmpty(s.Size))
	b.in(requirements.LabelArch, s.Arch)
	b.in(requirements.LabelOS, cmpOr(s.OS, []string{"linux"})...)
	b.absent(requirements.LabelWindowsBuild)
	b.in(requirements.LabelRegion, region)
	for _, k := range slices.Sorted(maps.Keys(s.Labels)) {
		b.override(k, s.Labels[k])
	}
	b.offered(s.Name, offs)
	return requirements.NewSet(b.reqs...), b.err(s.Name)
}

// labelBuilder collects requirements and the first errors building them.
// It remembers the requirements it made, as the types of a catalog share
// most of their values. The zero value is empty.
type labelBuilder struct {
	reqs []requirements.Requirement
	errs []error
	made map[madeKey]requirements.Requirement // with at most one value
	// zones and cts are a buffer for offered; last is what it made last.
	zones, cts []string
	last       offeredLabels
}

// madeKey is a requirement with at most one value (a DoesNotExist or an In
// of one value).
type madeKey struct {
	key   string
	op    requirements.Operator
	value string
}

// offeredLabels are the zone and capacity-type requirements made of the
// usable zones and capacity types of some offerings.
type offeredLabels struct {
	zones, cts []string
	zone, ct   requirements.Requirement
	made       bool
}

func (b *labelBuilder) add(key string, op requirements.Operator, values ...string) {
	if r, ok := b.req(key, op, values...); ok {
		b.reqs = append(b.reqs, r)
	}
}

// req returns key op values, or records why it is not a requirement.
func (b *labelBuilder) req(key string, op requirements.Operator, values ...string) (requirements.Requirement, bool) {
	var k madeKey
	if len(values) <= 1 {
		k = madeKey{key: key, op: op}
		if len(values) == 1 {
			k.value = values[0]
		}
		if r, ok := b.made[k]; ok {
			return r, true
		}
	}
	r, err := requirements.New(key, op, values...)
	switch {
	case err != nil:
		b.errs = append(b.errs, fmt.Errorf("labels.%s: %w", key, err))
	case len(values) <= 1:
		if b.made == nil {
			b.made = make(map[madeKey]requirements.Requirement)
		}
		b.made[k] = r
	}
	return r, err == nil
}

// in adds key In values, with each value made a valid label value
// ([labelValue]) since catalog data may hold names such as
// "Standard NCASv3_T4 Family".
func (b *labelBuilder) in(key string, values ...string) {
	vs, copied := values, false
	for i, v := range values {
		if l := labelValue(v); l != v {
			if !copied { // the caller's values stay as they are
				vs, copied = slices.Clone(values), true
			}
			vs[i] = l
		}
	}
	b.add(key, requirements.In, vs...)
}
func (b *labelBuilder) absent(key string) { b.add(key, requirements.DoesNotExist) }

// optional adds key In [*v], or key DoesNotExist when v is nil.
func (b *labelBuilder) optional(key string, v *string) {
	if v == nil {
		b.absent(key)
		return
	}
	b.in(key, *v)
}

// override replaces any requirement on key with key In [value].
func (b *labelBuilder) override(key, value string) {
	if r, ok := b.req(key, requirements.In, value); ok {
		b.replace(r)
	}
}

// replace replaces the requirement on r's key with r, or inserts r in key
// order if the requirements are in key order (which spares NewSet its
// sort). The requirements' keys must be distinct, as labels makes them.
func (b *labelBuilder) replace(r requirements.Requirement) {
	at := len(b.reqs)
	for i, o := range b.reqs {
		switch {
		case o.Key() == r.Key():
			b.reqs[i] = r
			return
		case o.Key() > r.Key() && at == len(b.reqs):
			at = i
		}
	}
	b.reqs = slices.Insert(b.reqs, at, r)
}

// offered sets the instance-type name and the zones and capacity types of
// offs, as [build] replaces them. When a zone is not a label value it sets
// none of the three, and when the name is not, not the name: build rejects
// such a type (validateOfferings, validateName) before it would read them.
func (b *labelBuilder) offered(name string, offs []Offering) {
	b.zones, b.cts = usable(offs, b.zones[:0], b.cts[:0])
	if l := &b.last; !l.made || !slices.Equal(l.zones, b.zones) || !slices.Equal(l.cts, b.cts) {
		zone, ct, err := usableLabels(b.zones, b.cts)
		if err != nil {
			return
		}
		*l = offeredLabels{zones: append(l.zones[:0], b.zones...), cts: append(l.cts[:0], b.cts...), zone: zone, ct: ct, made: true}
	}
	b.replace(b.last.zone)
	b.replace(b.last.ct)
	if r, err := requirements.New(requirements.LabelInstanceType, requirements.In, name); err == nil {
		b.replace(r)
	}
}

// labelValue returns v if it is a valid label value, else v lowercased
// with every run of other characters turned into one '-' and cut to 63
// characters, as Karpenter's lowerKabobCase spells names with spaces.
func labelValue(v string) string {
	if requirements.ValidateValue(v) == nil {
		return v
	}
	var out []byte
	for _, c := range []byte(strings.ToLower(v)) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '_', c == '.':
			out = append(out, c)
		case len(out) > 0 && out[len(out)-1] != '-':
			out = append(out, '-')
		}
	}
	return strings.Trim(string(out[:min(len(out), 63)]), "-_.")
}

func (b *labelBuilder) err(typ string) error {
	if len(b.errs) == 0 {
		return nil
	}
	return fieldErr(typ, "labels", ErrInvalidSpec, "%v", errors.Join(b.errs...))
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func formatInt(p *int64) *string {
	if p == nil {
		return nil
	}
	s := strconv.FormatInt(*p, 10)
	return &s
}

func fmtPtr(p *int64) string {
	if p == nil {
		return ""
	}
	return strconv.FormatInt(*p, 10)
}

func when(ok bool, v string) *string {
	if !ok {
		return nil
	}
	return &v
}

func cmpOr[S ~[]E, E any](a, b S) S {
	if len(a) > 0 {
		return a
	}
	return b
}

// devices returns the GPU and accelerator extended resources of s.
func (s *spec) devices() []resources.Amount {
	var out []resources.Amount
	if s.GPUs > 0 {
		out = append(out, resources.Amount{Name: gpuResource(s.GPUManufacturer), Value: s.GPUs})
	}
	if n, ok := acceleratorResource(s.AcceleratorManufacturer); ok && s.Accelerators > 0 {
		out = append(out, resources.Amount{Name: n, Value: s.Accelerators})
	}
	return out
}

// gpuResource names the device-plugin resource of a GPU maker; an unknown or
// empty maker is taken to be NVIDIA, by far the most common.
func gpuResource(manufacturer string) resources.Name {
	switch manufacturer {
	case "amd":
		return resources.AMDGPU
	case "habana":
		return resources.HabanaGaudi
	}
	return resources.GPU
}

// acceleratorResource names the device-plugin resource of an accelerator
// maker: AWS Inferentia and Trainium are aws.amazon.com/neuron, Qualcomm
// AI100 is qualcomm.com/qaic; others have none.
func acceleratorResource(manufacturer string) (resources.Name, bool) {
	switch manufacturer {
	case "aws":
		return resources.Neuron, true
	case "qualcomm":
		return "qualcomm.com/qaic", true
	}
	return "", false
}
