#!/usr/bin/env python3
"""How often NVML's total-energy counter changes (clmem takes it as every
100 ms at worst, and asks a metered span for ten of them): each GPU's
counter read in a tight loop for two seconds, idle, through ctypes."""
import ctypes
import statistics
import time


class Pci(ctypes.Structure):
    _fields_ = [("bus_id_legacy", ctypes.c_char * 16), ("domain", ctypes.c_uint),
                ("bus", ctypes.c_uint), ("device", ctypes.c_uint),
                ("pci_device_id", ctypes.c_uint), ("pci_subsystem_id", ctypes.c_uint),
                ("bus_id", ctypes.c_char * 32), ("reserved", ctypes.c_char * 64)]


nvml = ctypes.CDLL("libnvidia-ml.so.1")
assert nvml.nvmlInit_v2() == 0, "nvmlInit failed"
count = ctypes.c_uint()
nvml.nvmlDeviceGetCount_v2(ctypes.byref(count))
for i in range(count.value):
    handle = ctypes.c_void_p()
    nvml.nvmlDeviceGetHandleByIndex_v2(i, ctypes.byref(handle))
    pci = Pci()
    nvml.nvmlDeviceGetPciInfo_v3(handle, ctypes.byref(pci))
    mj = ctypes.c_ulonglong()
    rc = nvml.nvmlDeviceGetTotalEnergyConsumption(handle, ctypes.byref(mj))
    if rc != 0:
        print(f"GPU {i} {pci.bus_id.decode()}: no energy counter (NVML error {rc})")
        continue
    changes, last, reads = [], mj.value, 0
    start = time.monotonic()
    while time.monotonic() - start < 2.0:
        nvml.nvmlDeviceGetTotalEnergyConsumption(handle, ctypes.byref(mj))
        reads += 1
        if mj.value != last:
            changes.append((time.monotonic(), mj.value - last))
            last = mj.value
    gaps = [(b[0] - a[0]) * 1e3 for a, b in zip(changes, changes[1:])]
    watts = ctypes.c_uint()
    nvml.nvmlDeviceGetPowerUsage(handle, ctypes.byref(watts))
    if len(gaps) < 2:
        print(f"GPU {i} {pci.bus_id.decode()}: {len(changes)} changes in 2 s ({reads} reads)")
        continue
    print(f"GPU {i} {pci.bus_id.decode()}: {len(changes)} changes in 2 s ({reads} reads): "
          f"every {statistics.median(gaps):.1f} ms (median; {min(gaps):.1f} to "
          f"{max(gaps):.1f}), {statistics.median(c[1] for c in changes):.0f} mJ a change; "
          f"nvmlDeviceGetPowerUsage {watts.value / 1000:.1f} W")
nvml.nvmlShutdown()
