#include "server/mirror/key_pin.hpp"

#include "server/ops/state_file.hpp"
#include "server/trust/trust.hpp"

#include "render/json.hpp"
#include "render/resources.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace lcg::mirror {

namespace {

std::string keys_path() { return render::path_of(render::resource::keys); }
constexpr std::uint64_t max_keys_bytes = 1024 * 1024;

std::string ids_of(pricing::key_ring const& ring)
{
    std::string out;
    for (auto const& k : ring.keys)
        out += (out.empty() ? "" : ", ") + k.key_id;
    return out.empty() ? "none" : out;
}

// `ring` narrowed to the expected ids, each of which must be in it; all of it when none is expected.
pricing::key_ring only_expected(pricing::key_ring ring, std::vector<std::string> const& expected,
                                std::string const& from)
{
    if (expected.empty())
        return ring;
    pricing::key_ring kept;
    for (auto const& id : expected) {
        auto const* key = ring.find(id);
        if (!key)
            throw std::runtime_error("the key " + id + " given with --upstream-key-id is not among " + from + " (" +
                                     ids_of(ring) + ")");
        kept.keys.push_back(*key);
    }
    return kept;
}

pricing::key_ring parsed(std::string const& document, std::string const& from)
{
    auto ring = trust::parse_key_ring(document);
    if (!ring)
        throw std::runtime_error(from + ": " + ring.err().message);
    if (ring->keys.empty())
        throw std::runtime_error(from + " lists no key");
    return std::move(ring).value();
}

}

std::filesystem::path pin_file_for(client::base_url const& origin, std::filesystem::path const& state_dir)
{
    std::string name = origin.to_string();
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-')
            c = '_';
    return state_dir / "lowcostgpu" / "upstream-keys" / (name + ".json");
}

pricing::key_ring pinned_keys(client::base_url const& origin, client::limits limits, key_pin const& pin,
                              std::ostream& notice)
{
    if (std::filesystem::exists(pin.pin_file)) {
        std::string const from = "the keys pinned in " + pin.pin_file.string();
        auto ring = only_expected(parsed(ops::read_state(pin.pin_file, "the pinned keys"), from), pin.expected_ids, from);
        notice << "lowcostgpu: " << origin.to_string() << ": using " << from << " (" << ids_of(ring) << ")"
               << std::endl;
        return ring;
    }
    std::string const from = origin.to_string() + keys_path();
    auto ring = only_expected(parsed(client::get_body(origin, keys_path(), "application/json",
                                                      client::at_most(limits, max_keys_bytes)), from),
                              pin.expected_ids, from);
    ops::write_state(pin.pin_file, render::to_text(render::keys_json(ring)), "the pinned keys");
    notice << "lowcostgpu: " << origin.to_string() << ": trusting on first use the signing key(s) " << ids_of(ring)
           << (pin.expected_ids.empty() ? " it lists (compare them with ids you got another way, or give them with "
                                          "--upstream-key-id)"
                                        : ", as given with --upstream-key-id")
           << "; pinned in " << pin.pin_file.string() << ": later starts use these and never ask again" << std::endl;
    return ring;
}

}
