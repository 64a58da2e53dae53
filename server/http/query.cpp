#include "server/http/query.hpp"

#include <cctype>

#include "pricing/utf8.hpp"

namespace lcg::http {

namespace {

int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

}

std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c == '%') {
            if (i + 2 >= text.size())
                return std::nullopt;
            int const hi = hex_value(text[i + 1]);
            int const lo = hex_value(text[i + 2]);
            if (hi < 0 || lo < 0)
                return std::nullopt;
            c = static_cast<char>(hi * 16 + lo);
            i += 2;
        } else if (c == '+' && plus_is_space) {
            c = ' ';
        }
        if (c == '\0')
            return std::nullopt;
        out += c;
    }
    return out;
}

std::string reencoded_query(std::string_view query)
{
    auto const encode = [](std::string& out, std::string_view text) {
        for (unsigned char c : text)
            if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~')
                out += static_cast<char>(c);
            else
                pricing::append_percent_escaped(out, c);
    };
    std::string out;
    if (query.starts_with('?'))
        query.remove_prefix(1);
    while (!query.empty()) {
        auto const pair = next_query_pair(query);
        auto const eq = pair.find('=');
        auto const name = percent_decode(pair.substr(0, eq), true);
        auto const value = percent_decode(eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1), true);
        if (pair.empty() || !name || !value)
            continue;
        out += out.empty() ? '?' : '&';
        encode(out, *name);
        if (eq != std::string_view::npos) {
            out += '=';
            encode(out, *value);
        }
    }
    return out;
}

pricing::parsed<query_params> query_params::parse(std::string_view query)
{
    query_params params;
    while (!query.empty()) {
        auto const pair = next_query_pair(query);
        if (pair.empty())
            continue;
        auto const eq = pair.find('=');
        std::string_view const raw_name = pair.substr(0, eq);
        std::string_view const raw_value = eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1);
        auto name = percent_decode(raw_name, true);
        auto value = percent_decode(raw_value, true);
        bool const name_faulty = !name || !pricing::utf8_length(*name);
        // Made only for a refusal: named as the client wrote it when its name does not decode, and
        // the faulty part quoted as written, bytes outside ASCII %-encoded where they are not UTF-8
        // (the refusal is JSON).
        auto const refused = [&](std::string_view en, std::string_view fr) {
            std::string const named = name_faulty ? pricing::as_written(raw_name) : *name;
            std::string const shown = pricing::quote(pricing::as_written(name_faulty ? raw_name : raw_value));
            return pricing::bad_input(named, named + ": " + shown + std::string(en),
                                      named + "\u202F: " + shown + std::string(fr));
        };
        if (!name || !value)
            return refused(" has a malformed %-escape or encodes a NUL byte",
                           " contient un échappement % mal formé ou un octet NUL");
        if (name_faulty || !pricing::utf8_length(*value))
            return refused(" is not valid UTF-8 once decoded", " n’est pas de l’UTF-8 valide une fois décodé");
        if (params.values_.contains(*name))
            return pricing::bad_input(*name, "the parameter " + pricing::quote(*name) + " is given more than once",
                                      "le paramètre " + pricing::quote(*name) + " est donné plusieurs fois");
        params.values_.emplace(std::move(*name), std::move(*value));
    }
    return params;
}

std::optional<std::string> query_params::take(std::string const& name)
{
    auto node = values_.extract(name);
    if (node.empty())
        return std::nullopt;
    return std::move(node.mapped());
}

std::optional<std::string> query_params::first_unknown() const
{
    if (values_.empty())
        return std::nullopt;
    return values_.begin()->first;
}

}
