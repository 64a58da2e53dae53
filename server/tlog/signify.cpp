#include "server/tlog/signify.hpp"

#include "server/tlog/note.hpp"

namespace lcg::tlog {

namespace {

std::optional<std::string> key_number(std::string_view key_id)
{
    if (key_id.size() != 16 || key_id.find_first_not_of("0123456789abcdef") != std::string_view::npos)
        return std::nullopt;
    std::string out;
    for (std::size_t i = 0; i < key_id.size(); i += 2)
        out += static_cast<char>(std::stoi(std::string(key_id.substr(i, 2)), nullptr, 16));
    return out;
}

std::optional<std::string> signify_file(std::string_view key_id, std::string_view payload, std::string const& comment)
{
    auto const number = key_number(key_id);
    if (!number)
        return std::nullopt;
    return "untrusted comment: " + comment + "\n" + base64_encode("Ed" + *number + std::string(payload)) + "\n";
}

}

std::optional<std::string> signify_public_key(std::string_view key_id, std::string_view raw_public_key)
{
    if (raw_public_key.size() != 32)
        return std::nullopt;
    return signify_file(key_id, raw_public_key, "lowcostgpu public key " + std::string(key_id));
}

std::optional<std::string> signify_signature(std::string_view key_id, std::string_view signature_base64)
{
    auto const raw = base64_decode(signature_base64);
    if (!raw || raw->size() != 64)
        return std::nullopt;
    return signify_file(key_id, *raw, "verify with signify -V -p " + std::string(key_id) + ".pub -m signed.txt");
}

}
