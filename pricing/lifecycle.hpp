#pragma once

#include <string_view>

// How a GPU goes on and off a VM, as the cloud document describes it: the states a GPU passes
// through and what each move needs. Published with the methodology (render::methodology_json).
namespace lcg::pricing {

// allocated: held by the account, on no VM; attaching and detaching: asked, waiting for the VM to
// stop; attached: part of the VM, running whenever it runs.
inline constexpr std::string_view gpu_states[] = {"allocated", "attaching", "attached", "detaching"};

// What a move needs, by id: the VM stopped (attaching and detaching complete only then), the GPU
// allocated first (a flexible GPU), the VM's shape within the model's limits (else the instance
// check's vm-specs-mismatch).
struct lifecycle_move {
    std::string_view action;
    std::string_view from;  // empty: the GPU is not yet the account's
    std::string_view to;    // empty: the GPU goes back to the pool
    std::string_view needs[2];
};
inline constexpr lifecycle_move gpu_lifecycle[] = {
    {"allocate", "", "allocated", {}},
    {"attach", "allocated", "attaching", {"prior_allocation", "instance_limits"}},
    {"attach_completes", "attaching", "attached", {"vm_stopped"}},
    {"detach", "attached", "detaching", {}},
    {"detach_completes", "detaching", "allocated", {"vm_stopped"}},
    {"release", "allocated", "", {}},
};

// The two ways a VM gets a GPU: a flexible GPU is allocated, then attached; an inference VM is
// created with its GPU attached and needs no allocation. And the one check a change of VM type
// makes: the new type must fit the attached model's limits.
inline constexpr std::string_view gpu_kinds[] = {"flexible", "inference_vm"};

}
