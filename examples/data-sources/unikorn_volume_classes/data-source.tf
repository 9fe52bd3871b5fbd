# The encrypted NVMe classes of a region that make a 500 GiB volume.
data "unikorn_volume_classes" "fast" {
  region_id = var.region_id
  media     = "nvme"
  encrypted = true
  size_gib  = 500
}

# Their advertised IOPS, by class name.
output "max_iops" {
  value = { for class in data.unikorn_volume_classes.fast.classes : class.name => class.max_iops }
}

variable "region_id" {
  type = string
}
