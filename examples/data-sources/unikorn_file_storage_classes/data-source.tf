# The NFSv4 classes of a region.
data "unikorn_file_storage_classes" "nfsv4" {
  region_id = var.region_id
  protocol  = "nfsv4"
}

# Those that export a share from at least four addresses per network.
output "multipath_class_ids" {
  value = [for class in data.unikorn_file_storage_classes.nfsv4.classes : class.id if class.parallelism >= 4]
}

variable "region_id" {
  type = string
}
