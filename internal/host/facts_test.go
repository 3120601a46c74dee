package host

import (
	"os"
	"path/filepath"
	"testing"
)

// sysfs builds a fake /sys: files with their contents, links with their
// targets.
func sysfs(t *testing.T, files map[string]string, links map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, v := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(v+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for p, target := range links {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(root, target), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(root, target), full); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestFacts: a two-socket node of 2 x 2 cores with hyperthreads, an
// InfiniBand HCA with its IPoIB interface, a Slingshot cxi device with its
// hsn interface, a management Ethernet port, a bridge and its veth port,
// a bare veth, a GPU and a VGA controller.
func TestFacts(t *testing.T) {
	files := map[string]string{"devices/system/cpu/online": "0-7"}
	// cpu i: package i/4, core (i/2)%2 ... threads i and i+4 share a core
	for i, pc := range [][2]string{{"0", "0"}, {"0", "1"}, {"1", "0"}, {"1", "1"}, {"0", "0"}, {"0", "1"}, {"1", "0"}, {"1", "1"}} {
		d := filepath.Join("devices/system/cpu", "cpu"+string(rune('0'+i)), "topology")
		files[filepath.Join(d, "physical_package_id")] = pc[0]
		files[filepath.Join(d, "core_id")] = pc[1]
	}
	pci := "devices/pci0000:00/"
	for k, v := range map[string]string{
		"class/infiniband/mlx5_0/ports/1/state": "4: ACTIVE", "class/infiniband/mlx5_0/ports/1/rate": "200 Gb/sec (4X HDR)",
		"class/infiniband/mlx5_1/ports/1/state": "1: DOWN",
		"class/net/ib0/operstate":               "up", "class/net/ib0/type": "32",
		"class/net/hsn0/operstate": "up", "class/net/hsn0/type": "1",
		"class/net/eno1/operstate": "up", "class/net/eno1/type": "1", "class/net/eno1/speed": "1000",
		"class/net/eno2/operstate": "down", "class/net/eno2/type": "1",
		"class/net/lo/operstate":  "unknown",
		"class/net/br0/operstate": "up", "class/net/br0/bridge/stp_state": "0",
		"class/net/veth1/operstate": "up", "class/net/veth1/type": "1", "class/net/veth1/ifindex": "7", "class/net/veth1/iflink": "6",
		"class/net/veth1/master/x": "",
		"class/net/eth1/operstate": "up", "class/net/eth1/type": "1", "class/net/eth1/ifindex": "9", "class/net/eth1/iflink": "8",
		"class/net/vlan5/operstate": "up", "class/net/vlan5/type": "1", "class/net/vlan5/ifindex": "11", "class/net/vlan5/iflink": "3",
		"class/net/vlan5/lower_eno1/x": "",
		pci + "0000:17:00.0/numa_node": "0", pci + "0000:31:00.0/numa_node": "1", pci + "0000:40:00.0/numa_node": "0",
		"bus/pci/devices/0000:c1:00.0/class": "0x030200", "bus/pci/devices/0000:c1:00.0/vendor": "0x10de", "bus/pci/devices/0000:c1:00.0/numa_node": "1",
		"bus/pci/devices/0000:03:00.0/class": "0x030000", "bus/pci/devices/0000:03:00.0/vendor": "0x1a03",
		"class/cxi/cxi0/device/port/link": "up",
	} {
		files[k] = v
	}
	links := map[string]string{
		"class/infiniband/mlx5_0/device": pci + "0000:17:00.0", "class/net/ib0/device": pci + "0000:17:00.0",
		"class/infiniband/mlx5_1/device": pci + "0000:18:00.0",
		"class/net/eno1/device":          pci + "0000:40:00.0", "class/net/eno2/device": pci + "0000:41:00.0",
	}
	root := sysfs(t, files, links)
	// cxi0's device: the hsn interface hangs off the same PCI device
	cxiDev := filepath.Join(root, pci, "0000:31:00.0")
	os.Rename(filepath.Join(root, "class/cxi/cxi0/device"), filepath.Join(cxiDev, "cxidev"))
	os.MkdirAll(filepath.Join(cxiDev, "port"), 0o755)
	os.WriteFile(filepath.Join(cxiDev, "port", "link"), []byte("up\n"), 0o644)
	os.Symlink(cxiDev, filepath.Join(root, "class/cxi/cxi0/device"))
	os.Symlink(cxiDev, filepath.Join(root, "class/net/hsn0/device"))

	n := Facts(root, "node07")
	if n.Host != "node07" || n.Sockets != 2 || n.Cores != 4 || n.Threads != 8 {
		t.Errorf("host %s: %d sockets, %d cores, %d threads; want 2, 4, 8", n.Host, n.Sockets, n.Cores, n.Threads)
	}
	var got []string
	for _, x := range n.NICs {
		got = append(got, x.Name+":"+x.Kind)
	}
	want := "cxi0:cxi eno1:ethernet eth1:ethernet mlx5_0/1:infiniband"
	if s := join(got); s != want {
		t.Errorf("NICs %s, want %s", s, want)
	}
	for _, x := range n.NICs {
		if x.Name == "mlx5_0/1" && (x.Gbps != 200 || x.NUMA != 0) || x.Name == "cxi0" && x.NUMA != 1 {
			t.Errorf("NIC %+v", x)
		}
	}
	if fab := n.FabricNICs(); len(fab) != 2 {
		t.Errorf("fabric NICs %+v, want cxi0 and mlx5_0/1 (the Ethernet ports left out)", fab)
	}
	if len(n.GPUs) != 1 || n.GPUs[0].Vendor != "nvidia" || n.GPUs[0].NUMA != 1 {
		t.Errorf("GPUs %+v, want the NVIDIA 3D controller only", n.GPUs)
	}
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}
