//! [Constructor string parsing](https://urlpattern.spec.whatwg.org/#constructor-string-parsing):
//! a whole-URL pattern such as `https://*.example.com/:id` cut into the
//! components of an [`Init`].

use super::canon;
use super::parts::Options;
use super::tokenize::{Policy, Token, TokenKind, tokenize};
use super::{Init, PatternError};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    Init,
    Protocol,
    Authority,
    Username,
    Password,
    Hostname,
    Port,
    Pathname,
    Search,
    Hash,
    Done,
}

struct Parser {
    input: Vec<char>,
    tokens: Vec<Token>,
    result: Init,
    component_start: usize,
    token_index: usize,
    token_increment: usize,
    group_depth: usize,
    ipv6_bracket_depth: isize,
    protocol_matches_special: bool,
    state: State,
}

impl Parser {
    fn safe_token(&self, index: usize) -> &Token {
        self.tokens
            .get(index)
            .unwrap_or_else(|| self.tokens.last().expect("an end token"))
    }

    fn is_non_special_pattern_char(&self, index: usize, value: &str) -> bool {
        let token = self.safe_token(index);
        token.value == value
            && matches!(
                token.kind,
                TokenKind::Char | TokenKind::EscapedChar | TokenKind::InvalidChar
            )
    }

    fn here(&self, value: &str) -> bool {
        self.is_non_special_pattern_char(self.token_index, value)
    }

    fn is_search_prefix(&self) -> bool {
        if self.here("?") {
            return true;
        }
        if self.tokens[self.token_index].value != "?" {
            return false;
        }
        let Some(previous) = self.token_index.checked_sub(1) else {
            return true;
        };
        !matches!(
            self.safe_token(previous).kind,
            TokenKind::Name | TokenKind::Regexp | TokenKind::Close | TokenKind::Asterisk
        )
    }

    fn next_is_authority_slashes(&self) -> bool {
        self.is_non_special_pattern_char(self.token_index + 1, "/")
            && self.is_non_special_pattern_char(self.token_index + 2, "/")
    }

    fn make_component_string(&self) -> String {
        let end = self.tokens[self.token_index].index;
        let start = self.safe_token(self.component_start).index;
        self.input[start..end].iter().collect()
    }

    fn rewind(&mut self) {
        self.token_index = self.component_start;
        self.token_increment = 0;
    }

    fn rewind_and_set_state(&mut self, state: State) {
        self.rewind();
        self.state = state;
    }

    fn change_state(&mut self, new: State, skip: usize) {
        use State::*;
        if !matches!(self.state, Init | Authority | Done) {
            let value = Some(self.make_component_string());
            let r = &mut self.result;
            match self.state {
                Protocol => r.protocol = value,
                Username => r.username = value,
                Password => r.password = value,
                Hostname => r.hostname = value,
                Port => r.port = value,
                Pathname => r.pathname = value,
                Search => r.search = value,
                _ => r.hash = value,
            }
        }
        if self.state != Init && new != Done {
            let r = &mut self.result;
            if matches!(self.state, Protocol | Authority | Username | Password)
                && matches!(new, Port | Pathname | Search | Hash)
                && r.hostname.is_none()
            {
                r.hostname = Some(String::new());
            }
            if matches!(
                self.state,
                Protocol | Authority | Username | Password | Hostname | Port
            ) && matches!(new, Search | Hash)
                && r.pathname.is_none()
            {
                r.pathname = Some(
                    if self.protocol_matches_special {
                        "/"
                    } else {
                        ""
                    }
                    .to_string(),
                );
            }
            if matches!(
                self.state,
                Protocol | Authority | Username | Password | Hostname | Port | Pathname
            ) && new == Hash
                && r.search.is_none()
            {
                r.search = Some(String::new());
            }
        }
        self.state = new;
        self.token_index += skip;
        self.component_start = self.token_index;
        self.token_increment = 0;
    }

    fn compute_protocol_matches_special(&mut self) -> Result<(), PatternError> {
        let protocol = self.make_component_string();
        let component = super::compile_component(&protocol, canon::protocol, Options::DEFAULT)?;
        self.protocol_matches_special = component.matches_special_scheme();
        Ok(())
    }
}

/// [Parses a constructor string](https://urlpattern.spec.whatwg.org/#parse-a-constructor-string).
pub(super) fn parse_constructor_string(input: &str) -> Result<Init, PatternError> {
    let input: Vec<char> = input.chars().collect();
    let tokens = tokenize(&input, Policy::Lenient)?;
    let mut p = Parser {
        input,
        tokens,
        result: Init::default(),
        component_start: 0,
        token_index: 0,
        token_increment: 1,
        group_depth: 0,
        ipv6_bracket_depth: 0,
        protocol_matches_special: false,
        state: State::Init,
    };
    while p.token_index < p.tokens.len() {
        p.token_increment = 1;
        if p.tokens[p.token_index].kind == TokenKind::End {
            if p.state == State::Init {
                p.rewind();
                if p.here("#") {
                    p.change_state(State::Hash, 1);
                } else if p.is_search_prefix() {
                    p.change_state(State::Search, 1);
                } else {
                    p.change_state(State::Pathname, 0);
                }
                p.token_index += p.token_increment;
                continue;
            }
            if p.state == State::Authority {
                p.rewind_and_set_state(State::Hostname);
                p.token_index += p.token_increment;
                continue;
            }
            p.change_state(State::Done, 0);
            break;
        }
        if p.tokens[p.token_index].kind == TokenKind::Open {
            p.group_depth += 1;
            p.token_index += p.token_increment;
            continue;
        }
        if p.group_depth > 0 {
            if p.tokens[p.token_index].kind == TokenKind::Close {
                p.group_depth -= 1;
            } else {
                p.token_index += p.token_increment;
                continue;
            }
        }
        match p.state {
            State::Init => {
                if p.here(":") {
                    p.rewind_and_set_state(State::Protocol);
                }
            }
            State::Protocol => {
                if p.here(":") {
                    p.compute_protocol_matches_special()?;
                    let (mut next, mut skip) = (State::Pathname, 1);
                    if p.next_is_authority_slashes() {
                        (next, skip) = (State::Authority, 3);
                    } else if p.protocol_matches_special {
                        next = State::Authority;
                    }
                    p.change_state(next, skip);
                }
            }
            State::Authority => {
                if p.here("@") {
                    p.rewind_and_set_state(State::Username);
                } else if p.here("/") || p.is_search_prefix() || p.here("#") {
                    p.rewind_and_set_state(State::Hostname);
                }
            }
            State::Username => {
                if p.here(":") {
                    p.change_state(State::Password, 1);
                } else if p.here("@") {
                    p.change_state(State::Hostname, 1);
                }
            }
            State::Password => {
                if p.here("@") {
                    p.change_state(State::Hostname, 1);
                }
            }
            State::Hostname => {
                if p.here("[") {
                    p.ipv6_bracket_depth += 1;
                } else if p.here("]") {
                    p.ipv6_bracket_depth -= 1;
                } else if p.here(":") && p.ipv6_bracket_depth == 0 {
                    p.change_state(State::Port, 1);
                } else if p.here("/") {
                    p.change_state(State::Pathname, 0);
                } else if p.is_search_prefix() {
                    p.change_state(State::Search, 1);
                } else if p.here("#") {
                    p.change_state(State::Hash, 1);
                }
            }
            State::Port => {
                if p.here("/") {
                    p.change_state(State::Pathname, 0);
                } else if p.is_search_prefix() {
                    p.change_state(State::Search, 1);
                } else if p.here("#") {
                    p.change_state(State::Hash, 1);
                }
            }
            State::Pathname => {
                if p.is_search_prefix() {
                    p.change_state(State::Search, 1);
                } else if p.here("#") {
                    p.change_state(State::Hash, 1);
                }
            }
            State::Search => {
                if p.here("#") {
                    p.change_state(State::Hash, 1);
                }
            }
            State::Hash | State::Done => {}
        }
        p.token_index += p.token_increment;
    }
    if p.result.hostname.is_some() && p.result.port.is_none() {
        p.result.port = Some(String::new());
    }
    Ok(p.result)
}
