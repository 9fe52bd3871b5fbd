data "unikorn_regions" "all" {}

output "region_ids" {
  value = { for r in data.unikorn_regions.all.regions : r.name => r.id }
}
