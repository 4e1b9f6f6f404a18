# tests/faults.sh, mkfs failing: ext4 with a feature mke2fs does not know.
type = ext4
mkfs = mkfs.ext4 -F -q -O no_such_feature
mount_opts = noatime
modules = ext4
