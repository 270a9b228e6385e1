package requirements

import (
	"fmt"
	"slices"
	"strings"
)

// Well-known label keys: Kubernetes' topology and node labels and the labels
// Karpenter and its AWS provider put on the nodes they launch.
const (
	LabelZone         = "topology.kubernetes.io/zone"
	LabelRegion       = "topology.kubernetes.io/region"
	LabelInstanceType = "node.kubernetes.io/instance-type"
	LabelArch         = "kubernetes.io/arch"
	LabelOS           = "kubernetes.io/os"
	LabelWindowsBuild = "node.kubernetes.io/windows-build"
	LabelHostname     = "kubernetes.io/hostname"
	LabelCapacityType = "karpenter.sh/capacity-type"
	LabelNodePool     = "karpenter.sh/nodepool"

	LabelInstanceFamily              = "karpenter.k8s.aws/instance-family"
	LabelInstanceSize                = "karpenter.k8s.aws/instance-size"
	LabelInstanceCategory            = "karpenter.k8s.aws/instance-category"
	LabelInstanceGeneration          = "karpenter.k8s.aws/instance-generation"
	LabelInstanceCPU                 = "karpenter.k8s.aws/instance-cpu"
	LabelInstanceCPUManufacturer     = "karpenter.k8s.aws/instance-cpu-manufacturer"
	LabelInstanceMemory              = "karpenter.k8s.aws/instance-memory"
	LabelInstanceGPUCount            = "karpenter.k8s.aws/instance-gpu-count"
	LabelInstanceGPUName             = "karpenter.k8s.aws/instance-gpu-name"
	LabelInstanceGPUManufacturer     = "karpenter.k8s.aws/instance-gpu-manufacturer"
	LabelInstanceGPUMemory           = "karpenter.k8s.aws/instance-gpu-memory"
	LabelInstanceAcceleratorCount    = "karpenter.k8s.aws/instance-accelerator-count"
	LabelInstanceAcceleratorName     = "karpenter.k8s.aws/instance-accelerator-name"
	LabelInstanceAcceleratorMfr      = "karpenter.k8s.aws/instance-accelerator-manufacturer"
	LabelInstanceHypervisor          = "karpenter.k8s.aws/instance-hypervisor"
	LabelInstanceLocalNVMe           = "karpenter.k8s.aws/instance-local-nvme"
	LabelInstanceNetworkBandwidth    = "karpenter.k8s.aws/instance-network-bandwidth"
	LabelInstanceEBSBandwidth        = "karpenter.k8s.aws/instance-ebs-bandwidth"
	LabelInstanceCapabilityFlex      = "karpenter.k8s.aws/instance-capability-flex"
	LabelTopologyZoneID              = "topology.k8s.aws/zone-id"
	LabelInstanceEncryptionInTransit = "karpenter.k8s.aws/instance-encryption-in-transit-supported"
	// LabelInstanceBareMetal is nodeplan's own label ("true"/"false"); Karpenter
	// reads bare metal from an empty instance-hypervisor instead.
	LabelInstanceBareMetal    = "karpenter.k8s.aws/instance-bare-metal"
	LabelKarpenterInitialized = "karpenter.sh/initialized"
	LabelKarpenterRegistered  = "karpenter.sh/registered"
)

// Capacity types, the values of [LabelCapacityType].
const (
	CapacityTypeOnDemand = "on-demand"
	CapacityTypeSpot     = "spot"
	CapacityTypeReserved = "reserved"
)

// wellKnown lists, sorted, the keys a requirement may name although the
// receiver of Compatible does not define them yet: Karpenter's well-known
// labels and those its AWS provider registers. It is never modified.
var wellKnown = []string{
	LabelInstanceAcceleratorCount, LabelInstanceAcceleratorMfr, LabelInstanceAcceleratorName,
	LabelInstanceBareMetal, LabelInstanceCapabilityFlex, LabelInstanceCategory, LabelInstanceCPU,
	LabelInstanceCPUManufacturer, LabelInstanceEBSBandwidth, LabelInstanceEncryptionInTransit,
	LabelInstanceFamily, LabelInstanceGeneration, LabelInstanceGPUCount, LabelInstanceGPUManufacturer,
	LabelInstanceGPUMemory, LabelInstanceGPUName, LabelInstanceHypervisor, LabelInstanceLocalNVMe,
	LabelInstanceMemory, LabelInstanceNetworkBandwidth, LabelInstanceSize, LabelCapacityType,
	LabelNodePool, LabelArch, LabelOS, LabelInstanceType, LabelWindowsBuild, LabelTopologyZoneID,
	LabelRegion, LabelZone,
}

func init() { slices.Sort(wellKnown) } // keeps the literal free to be grouped by meaning

// IsWellKnown reports whether key is a well-known label: one that Karpenter
// fills in from the instance type and offering it launches, so that a pod
// may ask for it before any node defines it.
func IsWellKnown(key string) bool {
	_, ok := slices.BinarySearch(wellKnown, key)
	return ok
}

// WellKnown returns the well-known label keys, sorted.
func WellKnown() []string { return slices.Clone(wellKnown) }

// Normalize returns the stable key for a deprecated beta label key
// (failure-domain.beta.kubernetes.io/zone becomes topology.kubernetes.io/zone,
// and likewise region, arch, os and instance-type) and any other key unchanged.
func Normalize(key string) string {
	switch key {
	case "failure-domain.beta.kubernetes.io/zone":
		return LabelZone
	case "failure-domain.beta.kubernetes.io/region":
		return LabelRegion
	case "beta.kubernetes.io/arch":
		return LabelArch
	case "beta.kubernetes.io/os":
		return LabelOS
	case "beta.kubernetes.io/instance-type":
		return LabelInstanceType
	}
	return key
}

// ValidateKey reports whether key is a Kubernetes label key, exactly as
// apimachinery's validation.IsQualifiedName decides: an optional prefix and a
// slash, then a name of 1 to 63 alphanumerics, '-', '_' or '.' that starts
// and ends alphanumeric. The prefix is a DNS subdomain of at most 253
// characters: lowercase alphanumerics and '-' in dot-separated parts, each
// starting and ending alphanumeric. Like apimachinery, it bounds only the
// prefix's total length, not each part's. Taint keys, topology keys and
// the keys of every requirement follow the same rule. It does not allocate
// when key is valid.
func ValidateKey(key string) error {
	prefix, name, found := strings.Cut(key, "/")
	if !found {
		name = key
	}
	if found && (prefix == "" || len(prefix) > maxPrefix || !isDNSSubdomain(prefix)) {
		return fmt.Errorf("%w: label key %q: prefix must be a DNS subdomain of at most %d lowercase alphanumerics, '-' or '.', each part starting and ending alphanumeric", ErrInvalid, key, maxPrefix)
	}
	if !isLabelName(name) {
		return fmt.Errorf("%w: label key %q: name must be 1-63 alphanumerics, '-', '_' or '.', starting and ending alphanumeric", ErrInvalid, key)
	}
	return nil
}

// ValidateValue reports whether v is a Kubernetes label value, exactly as
// apimachinery's validation.IsValidLabelValue decides: empty, or at most 63
// alphanumerics, '-', '_' or '.', starting and ending alphanumeric. Taint
// values, toleration values and the values of every requirement follow the
// same rule. It does not allocate when v is valid.
func ValidateValue(v string) error {
	if v == "" || isLabelName(v) {
		return nil
	}
	return fmt.Errorf("%w: label value %q: must be at most 63 alphanumerics, '-', '_' or '.', starting and ending alphanumeric", ErrInvalid, v)
}

// maxName is the length limit of a label value and of a key's name part;
// maxPrefix that of a key's prefix.
const (
	maxName   = 63
	maxPrefix = 253
)

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// isLabelName reports whether s is 1..63 alphanumerics, '-', '_' or '.',
// starting and ending alphanumeric. Bytes of multi-byte UTF-8 sequences are
// never alphanumeric, so non-ASCII text is rejected as apimachinery's
// regular expressions reject it.
func isLabelName(s string) bool {
	if s == "" || len(s) > maxName || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// isDNSSubdomain reports whether s is dot-separated DNS labels (RFC 1123,
// lowercase), whatever their lengths: the caller bounds the total.
func isDNSSubdomain(s string) bool {
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			if !isDNSLabel(s[start:i]) {
				return false
			}
			start = i + 1
		}
	}
	return true
}

func isDNSLabel(s string) bool {
	if s == "" || !isLowerAlnum(s[0]) || !isLowerAlnum(s[len(s)-1]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isLowerAlnum(s[i]) && s[i] != '-' {
			return false
		}
	}
	return true
}

func isLowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }
