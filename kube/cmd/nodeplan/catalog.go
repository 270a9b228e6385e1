package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/planview"
)

// catalog builds the instance catalog the flags of c ask for: --catalog
// aws, azure or a catalog file, --region, --zones, --prices,
// --capacity-types and --spot-discount. A region without prices is an
// error that says how to give them.
func catalog(c config) (*instancetypes.Catalog, error) {
	opts, err := catalogOptions(c)
	if err != nil {
		return nil, err
	}
	cat, err := build(c.catalog, opts)
	if np := (*instancetypes.NoPricesError)(nil); errors.As(err, &np) {
		return nil, fmt.Errorf("%w; give its prices with --prices FILE (the layout of aws-ec2-prices.json) or a --catalog file with prices for %s",
			err, np.Region)
	}
	return cat, err
}

// clusterCatalog builds the catalog for cl: in --region, else, for the
// embedded catalogs, in the region cl's NodePool nodes name
// (kube.Cluster.Region), else in the catalog's default region. A node of a
// NodePool in another region than the catalog's is an error: the plan
// would be that region's.
func clusterCatalog(c config, cl *kube.Cluster) (*instancetypes.Catalog, error) {
	if c.region == "" && (c.catalog == "aws" || c.catalog == "azure") {
		c.region = cl.Region()
	}
	cat, err := catalog(c)
	if err != nil {
		return nil, err
	}
	if err := cl.CheckRegion(cat.Origin().Region); err != nil {
		return nil, fmt.Errorf("%w; nodeplan plans a cluster in one region: give the cluster's with --region", err)
	}
	return cat, nil
}

// build reads the named catalog under opts.
func build(name string, opts instancetypes.Options) (*instancetypes.Catalog, error) {
	switch name {
	case "aws":
		return instancetypes.AWS(opts)
	case "azure":
		return instancetypes.Azure(opts)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("--catalog: %w", err)
	}
	cat, err := instancetypes.Parse(data, opts)
	if err != nil {
		return nil, fmt.Errorf("--catalog %s: %w", name, err)
	}
	return cat, nil
}

// catalogOptions converts the catalog flags.
func catalogOptions(c config) (instancetypes.Options, error) {
	opts := instancetypes.Options{Region: c.region, SpotDiscount: c.spotDiscount, NoSpotDiscount: c.spotDiscount == 0}
	if c.zones != "" {
		opts.Zones = strings.Split(c.zones, ",")
	}
	var err error
	if opts.CapacityTypes, err = capacityTypes(c.capacityTypes); err != nil {
		return opts, err
	}
	if c.prices != "" {
		opts.Prices, err = readPrices(c.prices, c.region)
	}
	return opts, err
}

// capacityTypes parses --capacity-types, a comma-separated list; empty
// is the catalog's default.
func capacityTypes(list string) ([]instancetypes.CapacityType, error) {
	var out []instancetypes.CapacityType
	if list == "" {
		return nil, nil
	}
	for _, v := range strings.Split(list, ",") {
		ct, err := instancetypes.ParseCapacityType(strings.TrimSpace(v))
		if err != nil {
			return nil, fmt.Errorf("--capacity-types %q: %w", list, err)
		}
		out = append(out, ct)
	}
	return out, nil
}

// readPrices reads the prices of region (the file's only region when
// empty) from the --prices file.
func readPrices(path, region string) (instancetypes.Prices, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return instancetypes.Prices{}, fmt.Errorf("--prices: %w", err)
	}
	p, err := instancetypes.ParsePrices(data, region)
	if err != nil {
		return p, fmt.Errorf("--prices %s: %w (choose with --region)", path, err)
	}
	p.Source = path + ": " + p.Source
	return p, nil
}

// catalogNotes are the lines every output prints with its prices
// (planview.Notes), naming the flags that change them.
func catalogNotes(cat *instancetypes.Catalog, c config) []string {
	flag := "--capacity-types " + c.capacityTypes
	return planview.Notes(cat.Origin(), planview.Knobs{SpotDiscount: "--spot-discount", CapacityTypes: flag, Zones: "--zones"})
}
