// Package instancetypes models the machines a node autoscaler can launch:
// instance types with their labels, capacity, overhead and allocatable
// resources, the offerings (zone × capacity type × price) they are sold
// through, and an immutable, indexed [Catalog] of them. It embeds real
// catalogs of AWS EC2 ([AWS]) and Azure ([Azure]) and reads user catalogs
// in the same schema ([Parse]); [KarpenterDiverse] and [Synthetic] build
// test catalogs.
//
// # Cost model
//
// A Catalog is built once (O(n log n) plus its labels) and then only read;
// every method is safe for concurrent use. [Catalog.Compatible] first
// narrows the candidates with a label-value index — for every label key a
// bitset of the types per value — at the cost of a few bitset unions and
// intersections per requirement (1,398 types are 22 words), then checks
// offerings only for the survivors and yields them cheapest first, lazily,
// walking a google/btree ordered by each type's cheapest usable price.
// [InstanceType.Cheapest] and [Catalog.Cheapest] do not allocate.
// [Catalog.WithAvailability] copies only the types it changes; the index
// and (copy-on-write) the B-tree are shared.
//
// # Bounds
//
// [New] rejects, with a [*FieldError], capacities and overheads outside
// 0..resources.MaxAmount (2^50 per dimension) and prices outside
// 0..[MaxValidPrice] (a million currency units an hour): bounds no machine reaches, which
// keep every sum the packing and consolidation packages compute from a
// few of them exact (see the packing package doc). A price that is given
// — by a price list, Options.Prices or Options.SpotPrice, a catalog file's
// price or spotPrice — must moreover be at least [MinListPrice] (0.000001
// an hour): no offering read from a price list is free. Options.SpotDiscount
// is at most [MaxSpotDiscount] (99.9%), so a modelled spot price is
// positive too. [Catalog.WithKubelet] accepts exactly the kubelet settings
// the AWS provider's EC2NodeClass CRD accepts ([Kubelet]).
//
// # Prices, regions and zones
//
// A [Price] is an exact fixed-point count of nano-units per hour of its
// catalog's currency ([Origin].Currency: USD, or CNY in cn-north-1). A
// Price does not carry the currency: [Price.Format] writes it with one
// ("0.096000 CNY/hour"), the form in which nodeplan prints every price for
// people; [Price.String] writes the exact amount alone ("0.096000/h"),
// for messages of code that does not know the currency.
// On-demand prices come, first match wins, from
//
//  1. Options.Prices, the user's prices for the region ([ParsePrices] reads
//     them from a file in the layout of aws-ec2-prices.json);
//  2. for [Parse], the catalog file's own prices for the region;
//  3. for [AWS], and for [Parse] of a file with prices for other regions
//     only, the embedded AWS price list: Karpenter's initial on-demand
//     tables for us-east-1, us-gov-east-1 and us-gov-west-1 (USD) and
//     cn-north-1 (CNY) — the one source of the AWS prices in the code path
//     (the us-east-1 prices of the embedded catalog equal it and are not
//     read);
//  4. for [Azure], and for [Parse] of a file without any prices, the
//     resource model (ModelVCPUHour, ModelGiBHour, ModelGPUHour,
//     ModelAcceleratorHour, in USD).
//
// Another region's prices are never used: a region none of these covers is
// a [*NoPricesError] (ErrNoPrices) that lists the regions that have prices.
// A type without a price in the chosen source is left out (31 of the 1,398
// AWS types in us-east-1: HPC types not sold there, Macs sold per dedicated
// host, capacity-block-only types); [Origin].Unpriced counts them.
//
// Spot prices are a model, not a fact: DefaultSpotDiscount takes 60% off
// the on-demand price unless Options.SpotDiscount, Options.NoSpotDiscount
// (no discount: spot at the on-demand price), Options.SpotPrice or a
// file's spotPrice says otherwise. Options.CapacityTypes chooses the
// capacity types offerings are built for (default on-demand and spot).
//
// Zones default to the region's: us-east-1a/b/c, us-gov-east-1a/b/c,
// us-gov-west-1a/b/c and cn-north-1a/b/d for the regions with embedded
// prices (zone names those regions have; zone lists are not in the data),
// region+"a"/"b"/"c" for any other AWS region — an assumption that
// [Origin].ZonesAssumed flags — and region+"-1"/"-2"/"-3" for Azure. Every
// zone must be named as a zone of the region ([ZoneInRegion]).
// [Catalog.WithZones] moves a catalog's offerings to other zones, as a
// NodeClass's subnets restrict them. [Catalog.Origin] tells a consumer the
// region, zones, currency, price source and spot model, to print them.
//
// # Overhead: the EKS model of Karpenter's AWS provider
//
// Capacity and overhead follow aws/karpenter-provider-aws,
// pkg/providers/instancetype/types.go (functions memory, kubeReservedResources,
// evictionThreshold, ephemeralStorage and pods), for the AL2023 AMI family
// with no kubelet or block-device settings:
//
//   - memory capacity: the EC2 memory, less 64 MiB of CMA reservation on
//     arm64, less VMMemoryOverheadPercent (7.5%, the provider's
//     --vm-memory-overhead-percent default) rounded up to a whole MiB;
//   - cpu capacity: vCPUs × 1000m; pods: the ENI-limited maxPods of the
//     data (DefaultPods = 110 when unknown, as the provider does when
//     ENI-limited density does not apply), or Options.MaxPods;
//   - ephemeral-storage capacity: the 20Gi default root volume
//     (amifamily.DefaultEBS);
//   - kube-reserved cpu: 6% of the first core, 1% of the second, 0.5% of
//     the third and fourth and 0.25% of every further core, each tier
//     truncated to whole millicores;
//   - kube-reserved memory: 11 MiB × maxPods + 255 MiB;
//     kube-reserved ephemeral-storage: 1Gi;
//   - eviction threshold: memory.available 100Mi and nodefs.available 10%
//     of the root volume; system-reserved: none.
//
// So m5.large (2 vCPU, 8 GiB, 29 pods) has 1930m cpu, 6903Mi memory, 17Gi
// ephemeral-storage and 29 pods allocatable, as the provider's generated
// instance-types reference lists. [Catalog.WithKubelet] rebuilds a catalog file's
// types under a NodeClass's kubelet settings ([Kubelet]: maxPods,
// podsPerCore, kubeReserved, systemReserved, evictionHard) and AMI family,
// as the provider does; with maxPods 110, m5.large keeps 6903Mi on AL2023
// (kube-reserved memory stays sized for its 29 ENI-limited pods) and has
// 6012Mi on Bottlerocket (sized for 110). GPUs are extended resources
// nvidia.com/gpu, amd.com/gpu or habana.ai/gaudi by maker (unknown makers
// count as NVIDIA); AWS Inferentia and Trainium are aws.amazon.com/neuron.
//
// # Labels
//
// Every type satisfies node.kubernetes.io/instance-type, kubernetes.io/arch,
// kubernetes.io/os (linux unless the file says otherwise),
// topology.kubernetes.io/region, and zone and karpenter.sh/capacity-type In
// the values of its usable offerings, plus the AWS provider labels under
// karpenter.k8s.aws/: instance-family, -size, -category, -generation, -cpu,
// -cpu-manufacturer, -memory (MiB), -gpu-count, -gpu-name,
// -gpu-manufacturer, -gpu-memory, -accelerator-count, -accelerator-name,
// -accelerator-manufacturer, -hypervisor ("" for bare metal, as Karpenter
// labels it), -local-nvme, -network-bandwidth and nodeplan's own
// -bare-metal ("true"/"false"). A provider label the data does not know is
// DoesNotExist, as Karpenter sets it, so a pod asking for a GPU name never
// lands on a type without GPUs.
//
// # Catalog files
//
// The schema is that of /work/shared/catalogs (README.md there): a JSON
// object with "source", "generated", "region_prices" and "instanceTypes",
// each type with name, family, size, vcpu, memoryMiB, gpus,
// gpuManufacturer, gpuName, arch, bareMetal and the optional generation,
// category, gpuMemoryMiB, accelerators, acceleratorManufacturer,
// acceleratorName, cpuManufacturer, hypervisor, localNVMeGB,
// networkBandwidthMbps, maxPods and price ({"region": dollars per hour}).
// Unknown fields are errors. nodeplan adds optional per-type overrides for
// machines that follow other rules:
//
//   - "os": ["linux", "windows"] — the kubernetes.io/os values;
//   - "labels": {"key": "value"} — extra labels, replacing computed ones;
//   - "capacity": {"cpu": "8", "memory": "30Gi", "pods": "110",
//     "ephemeral-storage": "100Gi", "nvidia.com/gpu": "1"} — final capacity
//     values (no VM overhead is taken off them); the EKS overhead is then
//     computed from the overridden capacity;
//   - "overhead": {"cpu": "100m", "memory": "1Gi"} — final overhead values;
//   - "spotPrice": {"region": dollars per hour} — the spot price in place of
//     the discount model.
//
// nodeplan's optional document field "currency" is the ISO 4217 code of the
// price and spotPrice fields (default "USD"). A document with an empty
// region_prices is priced by the resource model; see Prices above for the
// rest.
//
// See Example for the cheapest arm64 types with at least 4 vCPUs.
package instancetypes
