// The GPU lifecycle of the cloud document in the methodology, and the instance check taking the
// document's own word for the performance flag.
#include "fixture_json.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

using namespace lcg::testing;
namespace json = boost::json;

namespace {

json::object const& step(json::object const& life, std::string_view action)
{
    for (auto const& m : life.at("moves").as_array())
        if (m.at("action").as_string() == action)
            return m.as_object();
    FAIL("no move " << action);
    return life;
}

std::vector<std::string> needs(json::object const& m)
{
    std::vector<std::string> out;
    for (auto const& n : m.at("needs").as_array())
        out.emplace_back(n.at("id").as_string());
    return out;
}

}

TEST_CASE("the methodology states the GPU lifecycle: four states, attach and detach complete only on a stopped VM")
{
    auto const life = fixture_json("/v1/methodology").at("gpu_lifecycle").as_object();
    std::vector<std::string> states;
    for (auto const& s : life.at("states").as_array())
        states.emplace_back(s.at("id").as_string());
    CHECK(states == std::vector<std::string>{"allocated", "attaching", "attached", "detaching"});
    CHECK(needs(step(life, "attach")) == std::vector<std::string>{"prior_allocation", "instance_limits"});
    CHECK(needs(step(life, "attach_completes")) == std::vector<std::string>{"vm_stopped"});
    CHECK(step(life, "attach_completes").at("to") == "attached");
    CHECK(needs(step(life, "detach_completes")) == std::vector<std::string>{"vm_stopped"});
    CHECK(step(life, "detach_completes").at("to") == "allocated");
    CHECK(step(life, "allocate").at("from").is_null());
    CHECK(life.at("kinds").at(1).at("id") == "inference_vm");
    CHECK(std::string(life.at("vm_type_change").as_string()).find("vm-specs-mismatch") != std::string::npos);
    auto const page = fixture_request("/v1/methodology.md").body().str();
    CHECK(page.find("## A GPU's lifecycle") != std::string::npos);
    CHECK(page.find("| `attach_completes` | attaching | attached | the VM stopped |") != std::string::npos);
    CHECK(fixture_request("/v1/methodology.md?lang=fr").body().str().find("## Le cycle de vie d’un GPU") !=
          std::string::npos);
}

TEST_CASE("the instance check takes cpu_performance=highest, the document's word, as the flag on")
{
    auto const base = std::string("/v1/instances/check?gpu=h100-sxm&vcpus=8&memory_gib=64&cpu_generation=v5");
    CHECK(fixture_json(base + "&cpu_performance=highest").at("status") == "ok");
    CHECK(fixture_json(base + "&cpu_performance=HIGHEST").at("status") == "ok");
    CHECK(fixture_json(base + "&cpu_performance=false").at("status") == "vm-specs-mismatch");
    auto const bad = fixture_json(base + "&cpu_performance=lowest", 400);
    CHECK(std::string(bad.at("detail").as_string()).find("accepted: true, false, highest") != std::string::npos);
}
