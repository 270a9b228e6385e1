package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCatalogFlags: --region, --prices, --catalog, --zones and
// --capacity-types never price or place a plan silently in another
// region, zone or capacity type, and the output says where prices come
// from, in which currency, and how spot is priced.
func TestCatalogFlags(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(data), 0o644))
		return p
	}
	const pool = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements: [{key: node.kubernetes.io/instance-type, operator: In, values: [m5.large]}]
---
apiVersion: v1
kind: Pod
metadata: {name: a}
spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
`
	manifests := write("pool.yaml", pool)
	class := func(name, zones string) string {
		var subnets []string
		for i, z := range strings.Split(zones, ",") {
			subnets = append(subnets, `{id: s`+string(rune('0'+i))+`, zone: `+z+`}`)
		}
		return write(name, pool+"---\napiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata: {name: default}\n"+
			"spec: {role: r}\nstatus: {subnets: ["+strings.Join(subnets, ", ")+"]}\n")
	}
	inD := class("class-d.yaml", "us-east-1d,us-east-1f")
	inEU := class("class-eu.yaml", "eu-west-1a,eu-west-1b")
	prices := write("prices.json", `{"partitions":{"aws":{"currency":"USD","tableGenerated":"2026-11-30","regions":{
 "ap-southeast-2":{"m5.large":0.12},"eu-west-1":{"m5.large":0.107}}}}}`)
	onePrice := write("one.json", `{"partitions":{"aws":{"currency":"USD","regions":{"ap-southeast-2":{"m5.large":0.125}}}}}`)
	catalogFile := write("catalog.json", `{"region_prices":["eu-west-1"],"instanceTypes":[
 {"name":"m5.large","family":"m5","size":"large","vcpu":2,"memoryMiB":8192,"gpus":0,"gpuManufacturer":"","gpuName":"","arch":"amd64","bareMetal":false,"price":{"eu-west-1":0.107}}]}`)
	node := func(file, pool, labels string) string {
		return write(file, pool+"---\napiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {"+labels+"}}\nstatus: {allocatable: {cpu: \"2\"}}\n")
	}
	inGov := node("gov.yaml", pool, "karpenter.sh/nodepool: default, topology.kubernetes.io/region: us-gov-west-1, topology.kubernetes.io/zone: us-gov-west-1b")
	inWest := node("west.yaml", pool, "karpenter.sh/nodepool: default, topology.kubernetes.io/region: us-west-2")
	zoneOnly := node("zone.yaml", pool, "karpenter.sh/nodepool: default, failure-domain.beta.kubernetes.io/zone: us-west-2a")
	unmanaged := node("unmanaged.yaml", pool, "topology.kubernetes.io/region: us-west-2, topology.kubernetes.io/zone: us-west-2a")
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string // each must appear
		absent []string // none may appear
		stderr string
	}{
		{"us-east-1 default", nil, exitOK, []string{
			"prices: embedded AWS on-demand prices for us-east-1, Karpenter's initial price table of 2026-07-20 (USD); 31 instance types without a price there are left out\n",
			"spot: estimated at 40 % of on-demand (--spot-discount 0.6)\n", "us-east-1a spot 0.038400", "USD/HOUR", "0.038400 USD/hour"}, nil, ""},
		{"region with embedded prices", []string{"--region", "us-gov-west-1", "--capacity-types", "on-demand"}, exitOK, []string{
			"prices: embedded AWS on-demand prices for us-gov-west-1", "(USD); 630 instance types",
			"spot: not offered (--capacity-types on-demand)\n", "us-gov-west-1a on-demand 0.121000"}, []string{"us-east-1", " spot "}, ""},
		{"CNY", []string{"--region", "cn-north-1", "--spot-discount", "0.7"}, exitOK, []string{
			"(CNY)", "spot: estimated at 30 % of on-demand (--spot-discount 0.7)", "CNY/HOUR", "cn-north-1a spot 0.303900", "0.303900 CNY/hour"}, []string{"USD", "$"}, ""},
		{"region without prices", []string{"--region", "ap-southeast-2"}, exitBadInput, nil, nil,
			`"ap-southeast-2" is not in nodeplan's embedded AWS price list, which has prices for cn-north-1, us-east-1, us-gov-east-1, us-gov-west-1 only; ` +
				`nodeplan never uses another region's prices; give its prices with --prices FILE`},
		{"mars-1", []string{"--region", "mars-1"}, exitBadInput, nil, nil, `no on-demand prices for the region: "mars-1"`},
		{"region without embedded prices, --prices", []string{"--region", "ap-southeast-2", "--prices", prices}, exitOK, []string{
			"prices: " + prices + ": on-demand prices for ap-southeast-2, table of 2026-11-30 (USD)",
			"zones: ap-southeast-2a, ap-southeast-2b, ap-southeast-2c assumed: nodeplan knows no zone names for ap-southeast-2",
			"ap-southeast-2a spot 0.048000"}, []string{"us-east-1"}, ""},
		{"--prices chooses the region", []string{"--prices", onePrice, "--zones", "ap-southeast-2b"}, exitOK, []string{
			"ap-southeast-2b spot 0.050000"}, []string{"us-east-1", "assumed"}, ""},
		{"--prices without the region", []string{"--region", "us-west-2", "--prices", prices}, exitBadInput, nil, nil,
			`--prices ` + prices + `: instancetypes: no on-demand prices for the region: "us-west-2" is not in the price list`},
		{"--prices with several regions and no --region", []string{"--prices", prices}, exitBadInput, nil, nil, "name one of them (choose with --region)"},
		{"catalog file with the region's prices", []string{"--catalog", catalogFile, "--region", "eu-west-1"}, exitOK, []string{
			"prices: the catalog file's prices for eu-west-1 (USD)", "eu-west-1a spot 0.042800"}, []string{"us-east-1"}, ""},
		{"catalog file without the region's prices", []string{"--catalog", catalogFile, "--region", "ap-southeast-2"}, exitBadInput, nil, nil,
			`--catalog ` + catalogFile + `: instancetypes: no on-demand prices for the region: "ap-southeast-2" is not in the catalog file or nodeplan's embedded AWS price list`},
		{"zones from the EC2NodeClass status", []string{"-f", inD}, exitOK, []string{"us-east-1d spot 0.038400"}, []string{"us-east-1a"}, ""},
		{"EC2NodeClass subnets in another region", []string{"-f", inEU}, exitBadInput, nil, nil,
			`EC2NodeClass default: status.subnets[0].zone: invalid object: zone "eu-west-1a" is not in region "us-east-1"`},
		{"--zones of another region", []string{"--zones", "us-east-1a,eu-west-1a"}, exitBadInput, nil, nil,
			`Options.Zones[1]: invalid options: "eu-west-1a" is not a zone of region "us-east-1"`},
		{"--zones of the region", []string{"--zones", "us-east-1e"}, exitOK, []string{"us-east-1e spot 0.038400"}, []string{"us-east-1a"}, ""},
		{"reserved", []string{"--capacity-types", "on-demand,reserved"}, exitOK, []string{
			"spot: not offered (--capacity-types on-demand,reserved)", "reserved: none offered: capacity reservations are not in the catalog",
			"us-east-1a on-demand 0.096000"}, nil, ""},
		{"reserved alone", []string{"--capacity-types", "reserved"}, exitBadInput, nil, nil, "reserved alone offers nothing"},
		{"unknown capacity type", []string{"--capacity-types", "on-demand,preemptible"}, exitBadInput, nil, nil,
			`--capacity-types "on-demand,preemptible": invalid capacity type: "preemptible" (want on-demand, spot or reserved)`},
		{"region from the NodePool nodes", []string{"-f", inGov}, exitOK, []string{
			"prices: embedded AWS on-demand prices for us-gov-west-1", "us-gov-west-1a spot"}, []string{"us-east-1"}, ""},
		{"nodes in a region without prices", []string{"-f", inWest}, exitBadInput, nil, nil,
			`"us-west-2" is not in nodeplan's embedded AWS price list`},
		{"--region other than the nodes'", []string{"-f", inGov, "--region", "us-east-1"}, exitBadInput, nil, nil,
			`gov.yaml: document 3: Node n1: metadata.labels["topology.kubernetes.io/region"]: node in another region: ` +
				`"us-gov-west-1", but the plan is for region "us-east-1"; nodeplan plans a cluster in one region: give the cluster's with --region`},
		{"node zone in another region", []string{"-f", zoneOnly}, exitBadInput, nil, nil,
			`zone.yaml: document 3: Node n1: metadata.labels["failure-domain.beta.kubernetes.io/zone"]: node in another region: zone "us-west-2a" is not in region "us-east-1"`},
		{"nodes outside NodePools are not checked", []string{"-f", unmanaged}, exitOK, []string{
			"prices: embedded AWS on-demand prices for us-east-1", "Node n1: price unknown"}, nil, ""},
		{"azure is modelled", []string{"--catalog", "azure", "-f", write("azure.yaml", strings.Replace(pool, "m5.large", "Standard_D2s_v5", 1))}, exitOK, []string{
			"prices: modelled from vCPU/memory/GPU, not Azure list prices (USD)\n"}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"provision"}, tc.args...)
			if !strings.Contains(strings.Join(tc.args, " "), "-f ") {
				args = append(args, "-f", manifests)
			}
			var stdout, stderr bytes.Buffer
			code := run(args, nil, &stdout, &stderr)
			require.Equal(t, tc.code, code, "stdout: %s\nstderr: %s", stdout.String(), stderr.String())
			out := columns.ReplaceAllString(stdout.String(), " ")
			for _, s := range tc.stdout {
				assert.Contains(t, out, s)
			}
			for _, s := range tc.absent {
				assert.NotContains(t, out, s)
			}
			assert.Contains(t, stderr.String(), tc.stderr)
		})
	}
}

// columns are the spaces between table columns.
var columns = regexp.MustCompile(`  +`)

func TestCatalogJSON(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"provision", "-f", inRegion(t, "../../testdata/cluster.yaml", "cn-north-1"), "--region", "cn-north-1", "--capacity-types", "on-demand", "-o", "json"},
		nil, &stdout, &stderr)
	require.Equal(t, exitUnschedulable, code, stderr.String())
	var r struct {
		Summary struct{ Currency string }
		Notes   []string
		Nodes   []struct{ Zone, CapacityType string }
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &r))
	assert.Equal(t, "CNY", r.Summary.Currency)
	assert.Equal(t, []string{"prices: embedded AWS on-demand prices for cn-north-1, Karpenter's initial price table of 2024-11-06 (CNY); " +
		"1082 instance types without a price there are left out", "spot: not offered (--capacity-types on-demand)"}, r.Notes)
	for _, n := range r.Nodes {
		if n.CapacityType != "on-demand" || !strings.HasPrefix(n.Zone, "cn-north-1") {
			t.Errorf("node %+v: want on-demand in cn-north-1", n)
		}
	}
}

func TestCatalogConsolidateDrift(t *testing.T) {
	for _, cmd := range []string{"consolidate", "drift"} {
		var stdout, stderr bytes.Buffer
		code := run([]string{cmd, "-f", "../../testdata/" + cmd + ".yaml", "--region", "ap-southeast-2"}, nil, &stdout, &stderr)
		assert.Equal(t, exitBadInput, code, cmd)
		assert.Contains(t, stderr.String(), `"ap-southeast-2" is not in nodeplan's embedded AWS price list`, cmd)
	}
}
