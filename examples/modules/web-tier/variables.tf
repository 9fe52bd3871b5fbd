variable "name" {
  description = "Name of the network and the security group, and prefix of the instances' names (<name>-1, <name>-2, …)."
  type        = string
}

variable "region_name" {
  description = "Name of the region to build in; null for the organization's first region."
  type        = string
  default     = null
}

variable "network_prefix" {
  description = "IPv4 prefix of the tier's network, e.g. 10.20.0.0/24."
  type        = string

  # Region's own rule, said where the caller can see it: IPv4, /24 or wider, written
  # as the network's address.
  validation {
    condition = (
      can(cidrnetmask(var.network_prefix)) &&
      try(cidrsubnet(var.network_prefix, 0, 0) == var.network_prefix, false) &&
      try(tonumber(split("/", var.network_prefix)[1]) <= 24, false)
    )
    error_message = "network_prefix must be an IPv4 network address with a prefix length of 24 or less, such as 10.20.0.0/24 (no host bits set)."
  }
}

variable "instance_count" {
  description = "How many web instances to run."
  type        = number
  default     = 2

  validation {
    condition     = var.instance_count >= 1 && floor(var.instance_count) == var.instance_count
    error_message = "instance_count must be a whole number of at least 1."
  }
}

variable "flavor_name" {
  description = "Name of the instances' flavor."
  type        = string
}

variable "image_name" {
  description = "Name of the instances' image; it must be built for the flavor's architecture."
  type        = string
}

variable "public_ip" {
  description = "Whether every instance gets a public IP address (each counts against the floatingips quota)."
  type        = bool
  default     = false
}

variable "ssh_from" {
  description = "IPv4 prefixes SSH is allowed in from; none by default."
  type        = list(string)
  default     = []
}

variable "tags" {
  description = "Tags of every object the module makes."
  type        = map(string)
  default     = {}
}
