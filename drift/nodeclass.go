package drift

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
)

// NodeClassHashVersion is the version of [NodeClass.Hash]'s encoding; a
// node recorded under another version is not checked against the hash.
const NodeClassHashVersion = "nodeplan-v1"

// ErrInvalid is wrapped by every error this package returns for malformed
// input.
var ErrInvalid = errors.New("invalid drift input")

// FieldError names the object and the field that is wrong. Error formats
// lazily; Unwrap gives ErrInvalid.
type FieldError struct {
	Object, Field, Msg string
}

func (e *FieldError) Error() string { return fmt.Sprintf("%s: %s: %s", e.Object, e.Field, e.Msg) }

// Unwrap returns ErrInvalid.
func (e *FieldError) Unwrap() error { return ErrInvalid }

// NodeClass is a provider-neutral node class: what it resolved (images,
// subnets, security groups) and the launch settings whose change drifts a
// node (user data, block devices, metadata options, role, tags). The zero
// NodeClass resolves nothing; an empty resolved list is not checked, since a
// class that resolved nothing cannot launch a replacement anyway.
type NodeClass struct {
	Name           string
	ImageIDs       []string
	Subnets        []string
	SecurityGroups []string
	// UserDataHash stands for the user data (any stable digest of it).
	UserDataHash    string
	BlockDevices    []BlockDevice
	MetadataOptions MetadataOptions
	Role            string
	Tags            map[string]string
}

// BlockDevice is one block device mapping. The zero BlockDevice maps
// nothing.
type BlockDevice struct {
	DeviceName          string
	VolumeSizeGiB       int64
	VolumeType          string
	IOPS, Throughput    int64
	Encrypted           bool
	DeleteOnTermination bool
	KMSKeyID            string
	SnapshotID          string
}

// MetadataOptions are the instance metadata service settings. The zero
// value leaves every setting to the provider's default.
type MetadataOptions struct {
	HTTPEndpoint, HTTPProtocolIPv6, HTTPTokens string
	HTTPPutResponseHopLimit                    int64
}

// Hash returns the hex FNV-64a hash of the launch settings: user data,
// block devices (as a set), metadata options, role and tags. The resolved
// images, subnets and security groups are left out; they drift by
// membership instead. The complexity is O(k log k) in devices and tags.
func (c NodeClass) Hash() string {
	e := newEncoder()
	e.str(c.UserDataHash)
	devs := slices.SortedFunc(slices.Values(c.BlockDevices), compareDevices)
	e.num(int64(len(devs)))
	for _, d := range devs {
		e.blockDevice(d)
	}
	m := c.MetadataOptions
	e.strs([]string{m.HTTPEndpoint, m.HTTPProtocolIPv6, m.HTTPTokens})
	e.num(m.HTTPPutResponseHopLimit)
	e.str(c.Role)
	e.strMap(c.Tags)
	return e.sum()
}

func (e *encoder) blockDevice(d BlockDevice) {
	e.strs([]string{d.DeviceName, d.VolumeType, d.KMSKeyID, d.SnapshotID})
	e.num(d.VolumeSizeGiB)
	e.num(d.IOPS)
	e.num(d.Throughput)
	e.num(int64(boolBits(d.Encrypted, d.DeleteOnTermination)))
}

func boolBits(a, b bool) int {
	n := 0
	if a {
		n |= 1
	}
	if b {
		n |= 2
	}
	return n
}

func compareDevices(a, b BlockDevice) int {
	return cmp.Or(cmp.Compare(a.DeviceName, b.DeviceName), cmp.Compare(a.VolumeSizeGiB, b.VolumeSizeGiB),
		cmp.Compare(a.VolumeType, b.VolumeType))
}

// EC2NodeClass is shaped like the AWS provider's karpenter.k8s.aws/v1
// EC2NodeClass: the spec a user writes and the status the provider
// resolves from the selector terms. Only what drift reads is kept.
type EC2NodeClass struct {
	Name   string
	Spec   EC2NodeClassSpec
	Status EC2NodeClassStatus
}

// EC2NodeClassSpec is the part of an EC2NodeClass spec drift reads. Role
// and InstanceProfile are alternatives, as in the provider.
type EC2NodeClassSpec struct {
	Role, InstanceProfile string
	UserData              string
	BlockDeviceMappings   []BlockDevice
	MetadataOptions       MetadataOptions
	Tags                  map[string]string
}

// EC2NodeClassStatus is what the provider resolved.
type EC2NodeClassStatus struct {
	AMIs           []AMI
	Subnets        []Subnet
	SecurityGroups []SecurityGroup
}

// AMI is a resolved image.
type AMI struct{ ID, Name string }

// Subnet is a resolved subnet.
type Subnet struct{ ID, Zone string }

// SecurityGroup is a resolved security group.
type SecurityGroup struct{ ID, Name string }

// NodeClass converts c to the provider-neutral form: resolved IDs sorted,
// the user data digested with SHA-256, the role or, failing it,
// "instance-profile/" and the instance profile. It returns a *FieldError
// (errors joined) for an empty name or a resolved entry without an ID. It
// does not modify c.
func (c EC2NodeClass) NodeClass() (NodeClass, error) {
	obj := "EC2NodeClass " + c.Name
	var errs []error
	if c.Name == "" {
		errs = append(errs, &FieldError{Object: "EC2NodeClass", Field: "name", Msg: "is empty"})
	}
	amis := ids(c.Status.AMIs, func(a AMI) string { return a.ID }, obj, "status.amis", &errs)
	subnets := ids(c.Status.Subnets, func(s Subnet) string { return s.ID }, obj, "status.subnets", &errs)
	sgs := ids(c.Status.SecurityGroups, func(s SecurityGroup) string { return s.ID }, obj, "status.securityGroups", &errs)
	if len(errs) > 0 {
		return NodeClass{}, errors.Join(errs...)
	}
	return NodeClass{Name: c.Name, ImageIDs: amis, Subnets: subnets, SecurityGroups: sgs,
		UserDataHash: digest(c.Spec.UserData), BlockDevices: slices.Clone(c.Spec.BlockDeviceMappings),
		MetadataOptions: c.Spec.MetadataOptions, Role: role(c.Spec), Tags: maps.Clone(c.Spec.Tags)}, nil
}

func ids[T any](items []T, id func(T) string, obj, field string, errs *[]error) []string {
	out := make([]string, 0, len(items))
	for i, it := range items {
		if v := id(it); v != "" {
			out = append(out, v)
			continue
		}
		*errs = append(*errs, &FieldError{Object: obj, Field: fmt.Sprintf("%s[%d].id", field, i), Msg: "is empty"})
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func digest(s string) string {
	if s == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func role(s EC2NodeClassSpec) string {
	if s.Role != "" || s.InstanceProfile == "" {
		return s.Role
	}
	return "instance-profile/" + s.InstanceProfile
}
