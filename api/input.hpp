#pragma once

#include "api/arguments.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// An operation's input, declared once: a struct derived from `input` whose members are `argument`s,
// each constructed with its parameter (name, type, bounds, description). That declaration is the
// parameter list: the decoder fills the members by name from either face, and the input schema,
// the OpenAPI parameters and the calculator's form are made from it. Adding a parameter is one
// member and its use:
//
//     struct transfer_input : input {
//         argument gb{this, {"gb", value_type::number, "The amount of data moved, in GB"}};
//     };
//     result transfer_time(request& r, transfer_input const& in) { … parse(in.gb()) … }
//
// An argument remembers whether the operation read it; a test calls every operation with each of
// its parameters and fails when one is given but never read (a parameter declared and forgotten).
namespace lcg::api {

class argument;

// The base of an operation's input: the arguments its members registered, in declaration order.
// Not copyable: the arguments point back to it.
class input {
public:
    static constexpr std::size_t max_arguments = 16;

    input() = default;
    input(input const&) = delete;
    input& operator=(input const&) = delete;

    std::span<argument* const> arguments() const { return {list_.data(), count_}; }
    // No argument was given: the call asks for the document as published.
    bool none_given() const;

private:
    friend class argument;
    void add(argument* a) { list_.at(count_++) = a; }

    std::array<argument*, max_arguments> list_{};
    std::size_t count_ = 0;
};

// One parameter of an operation's input, and its value in this call as the client wrote it.
class argument {
public:
    argument(input* owner, parameter spec) : spec_(spec) { owner->add(this); }
    argument(argument const&) = delete;
    argument& operator=(argument const&) = delete;

    parameter const& spec() const { return spec_; }
    // The value, read by the operation (empty when not given; a required one is always given, the
    // decoder having refused the call otherwise).
    std::optional<std::string> const& operator()() const
    {
        read_ = true;
        return value_;
    }
    bool given() const { return value_.has_value(); }
    bool unread() const { return value_ && !read_; }
    void give(std::optional<std::string> value) { value_ = std::move(value); }

private:
    parameter spec_;
    std::optional<std::string> value_;
    mutable bool read_ = false;
};

inline bool input::none_given() const
{
    for (auto const* a : arguments())
        if (a->given())
            return false;
    return true;
}

// The parameters of `In` in declaration order, then `lang`, which every operation takes (call()
// settles it before the operation runs). Made once, from an input no call uses.
parameter const& lang_parameter();

template <class In>
std::span<const parameter> parameters_of()
{
    static std::vector<parameter> const list = [] {
        In const prototype;
        std::vector<parameter> out;
        for (auto const* a : prototype.arguments())
            out.push_back(a->spec());
        out.push_back(lang_parameter());
        return out;
    }();
    return list;
}

}
